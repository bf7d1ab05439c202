package provisioner_test

import (
	"context"
	"testing"

	"github.com/aws/aws-lambda-go/events"

	"github.com/edu-invite/invite/shared/provisioner"
)

// rawDLQ is a dead-letter queue that also takes messages as they came.
type rawDLQ struct {
	recordingDLQ
	raw map[string]string // message id -> reason
}

func (r *rawDLQ) SendRaw(_ context.Context, _, _, id, reason string) error {
	r.raw[id] = reason
	return nil
}

// A malformed message goes to the dead-letter queue at once instead of
// failing until the queue's redrive, which would hold its FIFO group for
// hours; without a queue that takes raw messages it is failed as before.
func TestMalformedMessageDoesNotHoldItsGroup(t *testing.T) {
	batch := events.SQSEvent{Records: []events.SQSMessage{
		{MessageId: "m1", Body: "{not json", Attributes: map[string]string{"MessageGroupId": "sp-a"}},
	}}
	tests := []struct {
		name       string
		dlq        provisioner.DeadLetters
		wantFailed int
	}{
		{"dead-lettered at once", &rawDLQ{recordingDLQ{map[string]string{}}, map[string]string{}}, 0},
		{"failed without a raw dead-letter queue", &recordingDLQ{map[string]string{}}, 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := &provisioner.Provisioner{DeadLetters: tc.dlq}
			resp, err := p.HandleSQS(context.Background(), batch)
			if err != nil {
				t.Fatal(err)
			}
			if len(resp.BatchItemFailures) != tc.wantFailed {
				t.Fatalf("failures %v, want %d", resp.BatchItemFailures, tc.wantFailed)
			}
			if raw, ok := tc.dlq.(*rawDLQ); ok && raw.raw["m1"] == "" {
				t.Errorf("the malformed message was not dead-lettered: %v", raw.raw)
			}
		})
	}
}
