package lambdasqs

import (
	"context"
	"fmt"

	"github.com/aws/aws-lambda-go/events"
)

// invoke calls h and returns the ids of the messages that failed. As with
// Lambda, a returned error or a panic fails every message of the batch, and so
// does a batchItemFailures entry naming a message that is not in the batch
// or is empty (Lambda treats such a response as a complete failure).
func invoke(ctx context.Context, h Handler, ev events.SQSEvent) (failed map[string]bool, err error) {
	all := func() map[string]bool {
		ids := make(map[string]bool, len(ev.Records))
		for _, r := range ev.Records {
			ids[r.MessageId] = true
		}
		return ids
	}
	defer func() {
		if p := recover(); p != nil {
			failed, err = all(), fmt.Errorf("handler panicked: %v", p)
		}
	}()
	resp, err := h(ctx, ev)
	if err != nil {
		return all(), err
	}
	inBatch := all()
	failed = map[string]bool{}
	for _, f := range resp.BatchItemFailures {
		if !inBatch[f.ItemIdentifier] {
			return inBatch, fmt.Errorf("batchItemFailures names %q, not a message of the batch", f.ItemIdentifier)
		}
		failed[f.ItemIdentifier] = true
	}
	return failed, nil
}
