package lambdasqs

import (
	"cmp"
	"slices"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/sqs/types"
)

// groupOrder keeps FIFO message groups in order across failures. A group is
// blocked from the moment one of its messages (the head) fails until every
// message of the group that failed with it (the head and the rest of the
// group in that batch, which a FIFO consumer fails too) has been received
// again or is known to have left the queue. Messages of the group received
// meanwhile are held and handed over with them, in sequence order. Waiting
// for the head alone is not enough: the others of its batch come back on
// their own (the head's backoff is longer), possibly in a later receive, and
// what was held must not overtake them.
//
// It does no I/O: the poller makes held messages invisible and visible again.
type groupOrder struct {
	blocked map[string]*blockedGroup // by MessageGroupId
	// running are the groups with a batch in the handler; a group is never
	// blocked and running at once.
	running map[string]*runningGroup
}

// runningGroup is a group whose batch is in the handler: messages of the
// group received meanwhile wait in held until the batch is over.
type runningGroup struct {
	held []heldMessage
}

type blockedGroup struct {
	headID    string
	waiting   map[string]bool // failed messages of the group not received again yet, head included
	visibleAt time.Time       // when all of them are receivable again (an upper bound)
	held      []heldMessage
}

type heldMessage struct {
	msg         types.Message
	hiddenUntil time.Time
	fresh       bool // received by the current admit: not hidden by the poller yet
}

// admission is what one receive yields.
type admission struct {
	ready    []types.Message // for the handler now, in group order
	released []types.Message // subset of ready that had been held: their visibility must be reset
	held     []types.Message // newly held: must be made invisible for longer
}

// admit sorts the messages of one receive into ready and held. started is
// when the receive began; full says it returned as many messages as asked
// for. A receive that began after a blocked group's failed messages became
// visible and was not full would have returned them if they were still in
// the queue, so the missing ones have been moved to the DLQ (or deleted) and
// the group is released.
func (o *groupOrder) admit(received []types.Message, started time.Time, full bool, holdFor time.Duration) admission {
	var a admission
	for _, m := range received {
		g := groupID(m)
		b := o.blocked[g]
		switch {
		case o.running[g] != nil:
			// The substitute does not lock a group in flight: its later
			// messages wait until the running batch is over.
			r := o.running[g]
			r.held = append(r.held, heldMessage{msg: m, hiddenUntil: started.Add(holdFor)})
			a.held = append(a.held, m)
		case b == nil:
			a.ready = append(a.ready, m)
		default:
			delete(b.waiting, aws.ToString(m.MessageId))
			b.held = append(b.held, heldMessage{msg: m, hiddenUntil: started.Add(holdFor), fresh: true})
		}
	}
	for g, b := range o.blocked {
		release := len(b.waiting) == 0 || (!full && started.After(b.visibleAt))
		for i, h := range b.held {
			switch {
			case release && h.fresh:
				a.ready = append(a.ready, h.msg)
			case release:
				a.ready = append(a.ready, h.msg)
				a.released = append(a.released, h.msg)
			case h.fresh:
				a.held = append(a.held, h.msg)
				b.held[i].fresh = false
			}
		}
		if release {
			delete(o.blocked, g)
		}
	}
	sortByGroup(a.ready)
	return a
}

// failed blocks every group of batch that has a failed message, with its first
// failed message as head, waiting for all its failed messages to come back.
// Successful messages of the batch were deleted.
func (o *groupOrder) failed(batch []types.Message, failedIDs map[string]bool, visibleAt func(messageID string) time.Time) {
	for _, m := range batch {
		id := aws.ToString(m.MessageId)
		g := groupID(m)
		if g == "" || !failedIDs[id] {
			continue
		}
		if o.blocked == nil {
			o.blocked = map[string]*blockedGroup{}
		}
		b := o.blocked[g]
		if b == nil {
			b = &blockedGroup{headID: id, waiting: map[string]bool{}}
			o.blocked[g] = b
		}
		b.waiting[id] = true
		if at := visibleAt(id); at.After(b.visibleAt) {
			b.visibleAt = at
		}
	}
}

// expiring returns the held messages whose invisibility ends before horizon,
// and records that they are now hidden until newUntil.
func (o *groupOrder) expiring(horizon, newUntil time.Time) []types.Message {
	var out []types.Message
	expire := func(held []heldMessage) {
		for i := range held {
			if held[i].hiddenUntil.Before(horizon) {
				out = append(out, held[i].msg)
				held[i].hiddenUntil = newUntil
			}
		}
	}
	for _, b := range o.blocked {
		expire(b.held)
	}
	for _, r := range o.running {
		expire(r.held)
	}
	return out
}

// releaseAll forgets every blocked group and returns the held messages, for
// making them visible again when the poller stops.
func (o *groupOrder) releaseAll() []releasedGroup {
	var out []releasedGroup
	for _, b := range o.blocked {
		r := releasedGroup{headVisibleAt: b.visibleAt}
		for _, h := range b.held {
			r.held = append(r.held, h.msg)
		}
		out = append(out, r)
	}
	o.blocked = nil
	return out
}

// releasedGroup is what a stopping poller gives back of one blocked group.
type releasedGroup struct {
	held          []types.Message
	headVisibleAt time.Time
}

// heldCount is the number of messages the poller holds.
func (o *groupOrder) heldCount() int {
	n := 0
	for _, b := range o.blocked {
		n += len(b.held)
	}
	for _, r := range o.running {
		n += len(r.held)
	}
	return n
}

// sortByGroup orders messages by group (groups in order of first appearance)
// and within a group by SequenceNumber, as Lambda hands a FIFO batch over.
// Messages without a group (standard queues) keep their order.
func sortByGroup(msgs []types.Message) {
	first := map[string]int{}
	for i, m := range msgs {
		if _, ok := first[groupID(m)]; !ok {
			first[groupID(m)] = i
		}
	}
	slices.SortStableFunc(msgs, func(x, y types.Message) int {
		if c := cmp.Compare(first[groupID(x)], first[groupID(y)]); c != 0 || groupID(x) == "" {
			return c
		}
		return compareSequence(x.Attributes[string(types.MessageSystemAttributeNameSequenceNumber)],
			y.Attributes[string(types.MessageSystemAttributeNameSequenceNumber)])
	})
}

// compareSequence compares SQS sequence numbers: decimal strings of up to 128
// bits, too long for uint64, so shorter is smaller and equal lengths compare
// as text.
func compareSequence(a, b string) int {
	if c := cmp.Compare(len(a), len(b)); c != 0 {
		return c
	}
	return cmp.Compare(a, b)
}

func groupID(m types.Message) string {
	return m.Attributes[string(types.MessageSystemAttributeNameMessageGroupId)]
}
