package lambdasqs

import (
	"fmt"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/sqs/types"
)

// pack splits ready messages (sorted by group, each group in order) into
// batches of at most limit, never putting one group into two batches: they
// could run at once. What of a group does not fit into one batch is
// returned as overflow; start holds it behind the group's batch.
func pack(ready []types.Message, limit int) (batches [][]types.Message, overflow []types.Message) {
	var cur []types.Message
	for i := 0; i < len(ready); {
		g := groupID(ready[i])
		j := i + 1
		for j < len(ready) && g != "" && groupID(ready[j]) == g {
			j++
		}
		run := ready[i:j]
		if len(run) > limit {
			overflow = append(overflow, run[limit:]...)
			run = run[:limit]
		}
		if len(cur)+len(run) > limit {
			batches = append(batches, cur)
			cur = nil
		}
		cur = append(cur, run...)
		i = j
	}
	if len(cur) > 0 {
		batches = append(batches, cur)
	}
	return batches, overflow
}

// start marks the groups of the batches as running and holds the overflow
// behind them (hidden until hiddenUntil).
func (o *groupOrder) start(batches [][]types.Message, overflow []types.Message, hiddenUntil time.Time) {
	if o.running == nil {
		o.running = map[string]*runningGroup{}
	}
	for _, b := range batches {
		for _, m := range b {
			if g := groupID(m); g != "" && o.running[g] == nil {
				o.running[g] = &runningGroup{}
			}
		}
	}
	for _, m := range overflow {
		r := o.running[groupID(m)]
		r.held = append(r.held, heldMessage{msg: m, hiddenUntil: hiddenUntil})
	}
}

// finished ends the batch's groups. A group with a failed message becomes
// blocked behind its first failed one, keeping what was held meanwhile; the
// held messages of a group that fully succeeded are released, in order, for
// the next batch. A held copy of a message the batch handled successfully
// (its visibility ran out while it was in the handler and it was received
// again) is returned as a copy to delete: its new receipt handle is the
// valid one, so the delete of the batch may not have removed it.
func (o *groupOrder) finished(batch []types.Message, failedIDs map[string]bool, visibleAt func(messageID string) time.Time) (released, copies []types.Message) {
	done := map[string]bool{}
	for _, m := range batch {
		if !failedIDs[aws.ToString(m.MessageId)] {
			done[aws.ToString(m.MessageId)] = true
		}
	}
	o.failed(batch, failedIDs, visibleAt)
	seen := map[string]bool{}
	for _, m := range batch {
		g := groupID(m)
		if g == "" || seen[g] {
			continue
		}
		seen[g] = true
		r := o.running[g]
		delete(o.running, g)
		if r == nil {
			continue
		}
		var keep []heldMessage
		for _, h := range r.held {
			if done[aws.ToString(h.msg.MessageId)] {
				copies = append(copies, h.msg)
			} else {
				keep = append(keep, h)
			}
		}
		if b := o.blocked[g]; b != nil {
			for _, h := range keep {
				delete(b.waiting, aws.ToString(h.msg.MessageId)) // a copy received while in the handler
			}
			b.held = append(b.held, keep...)
			continue
		}
		for _, h := range keep {
			released = append(released, h.msg)
		}
	}
	sortByGroup(released)
	return released, copies
}

// runningCount is the number of groups with a batch in the handler.
func (o *groupOrder) runningCount() int { return len(o.running) }

// String describes the blocked and running groups, for a drain that times out.
func (o *groupOrder) String() string {
	var b strings.Builder
	for g, bg := range o.blocked {
		fmt.Fprintf(&b, "blocked %s: head %s, waiting %v, visible at %s, held %d; ", g, bg.headID, sortedKeys(bg.waiting),
			bg.visibleAt.Format(time.RFC3339Nano), len(bg.held))
	}
	for g, r := range o.running {
		fmt.Fprintf(&b, "running %s: held %d; ", g, len(r.held))
	}
	return b.String()
}
