package lambdasqs

import (
	"cmp"
	"slices"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/sqs/types"
)

// groupOrder keeps FIFO message groups in order across failures. A group is
// blocked from the moment one of its messages (the head) fails until that
// message is received again or is known to have left the queue; messages of
// the group received meanwhile are held and handed over after the head.
//
// It does no I/O: the poller makes held messages invisible and visible again.
type groupOrder struct {
	blocked map[string]*blockedGroup // by MessageGroupId
}

type blockedGroup struct {
	headID    string
	visibleAt time.Time // when the head becomes receivable again (an upper bound)
	held      []heldMessage
}

type heldMessage struct {
	msg         types.Message
	hiddenUntil time.Time
}

// admission is what one receive yields.
type admission struct {
	ready    []types.Message // for the handler now, in group order
	released []types.Message // subset of ready that had been held: their visibility must be reset
	held     []types.Message // newly held: must be made invisible for longer
}

// admit sorts the messages of one receive into ready and held. started is
// when the receive began; full says it returned as many messages as asked
// for. A receive that began after a blocked head became visible and was not
// full would have returned the head if it were still in the queue, so the head
// has been moved to the DLQ (or deleted) and its group is released.
func (o *groupOrder) admit(received []types.Message, started time.Time, full bool, holdFor time.Duration) admission {
	var a admission
	redelivered := map[string]bool{}
	for _, m := range received {
		g := groupID(m)
		b := o.blocked[g]
		switch {
		case b == nil:
			a.ready = append(a.ready, m)
		case aws.ToString(m.MessageId) == b.headID:
			a.ready = append(a.ready, m)
			redelivered[g] = true
		default:
			b.held = append(b.held, heldMessage{msg: m, hiddenUntil: started.Add(holdFor)})
			a.held = append(a.held, m)
		}
	}
	for g, b := range o.blocked {
		if !redelivered[g] && (full || !started.After(b.visibleAt)) {
			continue
		}
		for _, h := range b.held {
			a.ready = append(a.ready, h.msg)
			a.released = append(a.released, h.msg)
			a.held = slices.DeleteFunc(a.held, func(m types.Message) bool { return aws.ToString(m.MessageId) == aws.ToString(h.msg.MessageId) })
		}
		delete(o.blocked, g)
	}
	sortByGroup(a.ready)
	return a
}

// failed blocks every group of batch that has a failed message, with its first
// failed message as head. Messages of those groups after the head stay with
// SQS (failed ones reappear with the head, successful ones were deleted).
func (o *groupOrder) failed(batch []types.Message, failedIDs map[string]bool, visibleAt func(messageID string) time.Time) {
	for _, m := range batch {
		g := groupID(m)
		if g == "" || !failedIDs[aws.ToString(m.MessageId)] {
			continue
		}
		if _, ok := o.blocked[g]; ok {
			continue // an earlier failed message of the group is already the head
		}
		if o.blocked == nil {
			o.blocked = map[string]*blockedGroup{}
		}
		o.blocked[g] = &blockedGroup{headID: aws.ToString(m.MessageId), visibleAt: visibleAt(aws.ToString(m.MessageId))}
	}
}

// expiring returns the held messages whose invisibility ends before horizon,
// and records that they are now hidden until newUntil.
func (o *groupOrder) expiring(horizon, newUntil time.Time) []types.Message {
	var out []types.Message
	for _, b := range o.blocked {
		for i := range b.held {
			if b.held[i].hiddenUntil.Before(horizon) {
				out = append(out, b.held[i].msg)
				b.held[i].hiddenUntil = newUntil
			}
		}
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
