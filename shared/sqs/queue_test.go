package sqs

import (
	"context"
	"fmt"
	"github.com/aws/aws-lambda-go/events"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	awssqs "github.com/aws/aws-sdk-go-v2/service/sqs"
	"github.com/aws/aws-sdk-go-v2/service/sqs/types"

	"github.com/edu-invite/invite/shared/domain"
)

type recordingAPI struct {
	batches [][]types.SendMessageBatchRequestEntry
	sent    []*awssqs.SendMessageInput
	failAt  int // batch number (1-based) whose first entry fails; 0 = none
}

func (r *recordingAPI) SendMessageBatch(_ context.Context, in *awssqs.SendMessageBatchInput, _ ...func(*awssqs.Options)) (*awssqs.SendMessageBatchOutput, error) {
	r.batches = append(r.batches, in.Entries)
	if len(r.batches) == r.failAt {
		return &awssqs.SendMessageBatchOutput{Failed: []types.BatchResultErrorEntry{{Id: in.Entries[0].Id, Code: aws.String("InternalError"), Message: aws.String("boom")}}}, nil
	}
	return &awssqs.SendMessageBatchOutput{}, nil
}

func (r *recordingAPI) SendMessage(_ context.Context, in *awssqs.SendMessageInput, _ ...func(*awssqs.Options)) (*awssqs.SendMessageOutput, error) {
	r.sent = append(r.sent, in)
	return &awssqs.SendMessageOutput{}, nil
}

func deliveries(n int) []domain.Delivery {
	out := make([]domain.Delivery, n)
	for i := range out {
		out[i] = domain.Delivery{ID: fmt.Sprintf("d%02d", i), SPID: fmt.Sprintf("sp-%d", i%2), Kind: domain.DeliverGroupCreate, RoleID: int64(i + 1), CreatedAt: time.Unix(0, 0)}
	}
	return out
}

func TestEnqueueBatchesInOrderWithGroupAndDedupIDs(t *testing.T) {
	api := &recordingAPI{}
	if err := NewQueue(api, "q").Enqueue(context.Background(), deliveries(23)); err != nil {
		t.Fatal(err)
	}
	if len(api.batches) != 3 || len(api.batches[0]) != 10 || len(api.batches[2]) != 3 {
		t.Fatalf("batch sizes = %d batches, want 10+10+3", len(api.batches))
	}
	i := 0
	for _, b := range api.batches {
		for _, e := range b {
			d := deliveries(23)[i]
			if aws.ToString(e.MessageGroupId) != d.SPID || aws.ToString(e.MessageDeduplicationId) != d.ID {
				t.Fatalf("entry %d: group %q dedup %q, want %q %q", i, aws.ToString(e.MessageGroupId), aws.ToString(e.MessageDeduplicationId), d.SPID, d.ID)
			}
			i++
		}
	}
}

func TestEnqueueStopsAtFirstFailedBatch(t *testing.T) {
	api := &recordingAPI{failAt: 1}
	err := NewQueue(api, "q").Enqueue(context.Background(), deliveries(15))
	if err == nil || !strings.Contains(err.Error(), "boom") {
		t.Fatalf("err = %v, want the SQS failure", err)
	}
	if len(api.batches) != 1 {
		t.Fatalf("sent %d batches after a failure, want 1 (later messages must not overtake)", len(api.batches))
	}
}

func TestDeadLetterCarriesReason(t *testing.T) {
	api := &recordingAPI{}
	d := deliveries(1)[0]
	d.Attempts = 3
	if err := NewDeadLetters(api, "dlq").Send(context.Background(), d, "POST /Groups: 400 invalidSyntax"); err != nil {
		t.Fatal(err)
	}
	in := api.sent[0]
	if aws.ToString(in.MessageAttributes["reason"].StringValue) != "POST /Groups: 400 invalidSyntax" ||
		aws.ToString(in.MessageGroupId) != d.SPID || aws.ToString(in.QueueUrl) != "dlq" {
		t.Fatalf("dead letter = %+v", in)
	}
}

// A replay must not be dropped by SQS as a repeat of the first send.
func TestReplayGetsANewDeduplicationID(t *testing.T) {
	api := &recordingAPI{}
	d := deliveries(1)[0]
	d.Replays = 2
	if err := NewQueue(api, "q").Enqueue(context.Background(), []domain.Delivery{d}); err != nil {
		t.Fatal(err)
	}
	if got := aws.ToString(api.batches[0][0].MessageDeduplicationId); got != d.ID+"-r2" {
		t.Fatalf("dedup id = %q", got)
	}
}

type visibilityRecorder struct {
	got *awssqs.ChangeMessageVisibilityInput
}

func (v *visibilityRecorder) ChangeMessageVisibility(_ context.Context, in *awssqs.ChangeMessageVisibilityInput, _ ...func(*awssqs.Options)) (*awssqs.ChangeMessageVisibilityOutput, error) {
	v.got = in
	return &awssqs.ChangeMessageVisibilityOutput{}, nil
}

func TestVisibilityDelayRoundsUpAndCaps(t *testing.T) {
	tests := []struct {
		d    time.Duration
		want int32
	}{{1500 * time.Millisecond, 2}, {7 * time.Second, 7}, {48 * time.Hour, 43200}}
	for _, tc := range tests {
		rec := &visibilityRecorder{}
		if err := NewVisibility(rec, "q").Delay(context.Background(), events.SQSMessage{MessageId: "m", ReceiptHandle: "rh"}, tc.d); err != nil {
			t.Fatal(err)
		}
		if rec.got.VisibilityTimeout != tc.want || aws.ToString(rec.got.ReceiptHandle) != "rh" {
			t.Errorf("Delay(%v) = %+v, want %d s", tc.d, rec.got, tc.want)
		}
	}
}
