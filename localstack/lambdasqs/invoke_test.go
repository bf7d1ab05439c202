package lambdasqs

import (
	"context"
	"errors"
	"maps"
	"testing"

	"github.com/aws/aws-lambda-go/events"
)

func TestInvokeReportsWhatFailed(t *testing.T) {
	ev := events.SQSEvent{Records: []events.SQSMessage{{MessageId: "1"}, {MessageId: "2"}}}
	fail := func(ids ...string) events.SQSEventResponse {
		var r events.SQSEventResponse
		for _, id := range ids {
			r.BatchItemFailures = append(r.BatchItemFailures, events.SQSBatchItemFailure{ItemIdentifier: id})
		}
		return r
	}
	tests := []struct {
		name       string
		handler    Handler
		wantFailed map[string]bool
		wantErr    bool
	}{
		{"success", func(context.Context, events.SQSEvent) (events.SQSEventResponse, error) { return fail(), nil },
			map[string]bool{}, false},
		{"one item failed", func(context.Context, events.SQSEvent) (events.SQSEventResponse, error) { return fail("2"), nil },
			map[string]bool{"2": true}, false},
		{"error fails the batch", func(context.Context, events.SQSEvent) (events.SQSEventResponse, error) {
			return fail(), errors.New("boom")
		}, map[string]bool{"1": true, "2": true}, true},
		{"panic fails the batch", func(context.Context, events.SQSEvent) (events.SQSEventResponse, error) { panic("boom") },
			map[string]bool{"1": true, "2": true}, true},
		{"unknown id fails the batch", func(context.Context, events.SQSEvent) (events.SQSEventResponse, error) { return fail("9"), nil },
			map[string]bool{"1": true, "2": true}, true},
		{"empty id fails the batch", func(context.Context, events.SQSEvent) (events.SQSEventResponse, error) { return fail(""), nil },
			map[string]bool{"1": true, "2": true}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			failed, err := invoke(context.Background(), tt.handler, ev)
			if (err != nil) != tt.wantErr || !maps.Equal(failed, tt.wantFailed) {
				t.Fatalf("invoke = %v, %v; want %v, error %v", failed, err, tt.wantFailed, tt.wantErr)
			}
		})
	}
}
