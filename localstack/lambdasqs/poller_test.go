package lambdasqs_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-lambda-go/events"
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/sqs"
	"github.com/aws/aws-sdk-go-v2/service/sqs/types"

	"github.com/edu-invite/invite/localstack/lambdasqs"
	"github.com/edu-invite/invite/localstack/substitutes"
	"github.com/edu-invite/invite/localstack/substitutes/substitutestest"
)

type queue struct {
	client      *sqs.Client
	cfg         aws.Config
	url, dlqURL string
}

func newQueue(t testing.TB, maxReceiveCount int) queue {
	t.Helper()
	q := substitutestest.SQS(t)
	cfg := substitutestest.Config(t, substitutes.Endpoints{SQS: q.URL})
	client := sqs.NewFromConfig(cfg)
	url, dlq, err := substitutes.CreateQueues(context.Background(), client, fmt.Sprintf("test-%d", time.Now().UnixNano()), maxReceiveCount)
	if err != nil {
		t.Fatal(err)
	}
	return queue{client: client, cfg: cfg, url: url, dlqURL: dlq}
}

// send puts messages with bodies "<group>-<n>" on the queue, in the order given.
func (q queue) send(t testing.TB, group string, bodies ...string) {
	t.Helper()
	for _, b := range bodies {
		if _, err := q.client.SendMessage(context.Background(), &sqs.SendMessageInput{QueueUrl: &q.url, MessageBody: aws.String(b),
			MessageGroupId: aws.String(group), MessageDeduplicationId: aws.String(b)}); err != nil {
			t.Fatal(err)
		}
	}
}

// recorder is a handler that records what it was handed and fails as told.
type recorder struct {
	mu       sync.Mutex
	seen     []string
	failing  map[string]int // body -> how many more times to fail it
	batchErr int            // fail this many whole batches with an error
}

func (r *recorder) handle(_ context.Context, ev events.SQSEvent) (events.SQSEventResponse, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.batchErr > 0 {
		r.batchErr--
		return events.SQSEventResponse{}, errors.New("handler crashed")
	}
	var resp events.SQSEventResponse
	failedGroups := map[string]bool{}
	for _, m := range ev.Records {
		g := m.Attributes["MessageGroupId"]
		if failedGroups[g] {
			resp.BatchItemFailures = append(resp.BatchItemFailures, events.SQSBatchItemFailure{ItemIdentifier: m.MessageId})
			continue
		}
		r.seen = append(r.seen, m.Body)
		if r.failing[m.Body] > 0 {
			r.failing[m.Body]--
			failedGroups[g] = true
			resp.BatchItemFailures = append(resp.BatchItemFailures, events.SQSBatchItemFailure{ItemIdentifier: m.MessageId})
		}
	}
	return resp, nil
}

func (r *recorder) bodies() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.seen...)
}

func drain(t *testing.T, q queue, r *recorder) { drainBatches(t, q, r, 10) }

func drainBatches(t *testing.T, q queue, r *recorder, batchSize int) {
	t.Helper()
	p := &lambdasqs.Poller{Client: q.client, QueueURL: q.url, Handler: r.handle, VisibilityTimeout: time.Second, WaitTime: time.Second, BatchSize: batchSize}
	ctx, cancel := context.WithTimeout(context.Background(), 40*time.Second)
	defer cancel()
	if err := p.Drain(ctx); err != nil {
		t.Fatal(err)
	}
}

// order returns the positions of the bodies in seen.
func positions(seen []string) map[string][]int {
	pos := map[string][]int{}
	for i, b := range seen {
		pos[b] = append(pos[b], i)
	}
	return pos
}

func TestEachMessageOnceInGroupOrder(t *testing.T) {
	t.Parallel()
	q := newQueue(t, 5)
	q.send(t, "a", "a1", "a2", "a3")
	q.send(t, "b", "b1", "b2")
	r := &recorder{failing: map[string]int{}}
	drain(t, q, r)
	seen := r.bodies()
	pos := positions(seen)
	for _, b := range []string{"a1", "a2", "a3", "b1", "b2"} {
		if len(pos[b]) != 1 {
			t.Fatalf("%s handed over %d times (all: %v), want once", b, len(pos[b]), seen)
		}
	}
	if !(pos["a1"][0] < pos["a2"][0] && pos["a2"][0] < pos["a3"][0] && pos["b1"][0] < pos["b2"][0]) {
		t.Fatalf("group order broken: %v", seen)
	}
}

// With one message per batch the poller receives a2 and a3 while a1 waits
// for redelivery (local-aws-sqs does not lock the group) and must hold them;
// with ten, a1..a3 come back together after the visibility timeout.
func TestFailedMessageIsRedeliveredBeforeTheRestOfItsGroup(t *testing.T) {
	for _, batchSize := range []int{1, 10} {
		t.Run(fmt.Sprintf("batch size %d", batchSize), func(t *testing.T) {
			t.Parallel()
			q := newQueue(t, 5)
			q.send(t, "a", "a1", "a2", "a3")
			q.send(t, "b", "b1", "b2")
			r := &recorder{failing: map[string]int{"a1": 1}}
			drainBatches(t, q, r, batchSize)
			seen := r.bodies()
			pos := positions(seen)
			if len(pos["a1"]) != 2 || len(pos["a2"]) != 1 || len(pos["a3"]) != 1 || len(pos["b1"]) != 1 || len(pos["b2"]) != 1 {
				t.Fatalf("deliveries: %v, want a1 twice and every other message once", seen)
			}
			if !(pos["a1"][1] < pos["a2"][0] && pos["a2"][0] < pos["a3"][0]) {
				t.Fatalf("a2 or a3 overtook the failed a1: %v", seen)
			}
			if !(pos["b1"][0] < pos["b2"][0] && pos["b2"][0] < pos["a1"][1]) {
				t.Fatalf("group b waited for group a's retry: %v", seen)
			}
		})
	}
}

// Messages of different groups in one batch: only the reported failure comes
// back; the successes were deleted.
func TestPartialBatchFailureDeletesOnlyTheSuccesses(t *testing.T) {
	t.Parallel()
	q := newQueue(t, 5)
	q.send(t, "g1", "m1")
	q.send(t, "g2", "m2")
	q.send(t, "g3", "m3")
	r := &recorder{failing: map[string]int{"m2": 1}}
	drain(t, q, r)
	pos := positions(r.bodies())
	if len(pos["m1"]) != 1 || len(pos["m2"]) != 2 || len(pos["m3"]) != 1 {
		t.Fatalf("deliveries: %v, want m2 twice, m1 and m3 once", r.bodies())
	}
}

func TestEventLooksLikeLambdas(t *testing.T) {
	t.Parallel()
	q := newQueue(t, 5)
	if _, err := q.client.SendMessage(context.Background(), &sqs.SendMessageInput{QueueUrl: &q.url, MessageBody: aws.String("x"),
		MessageGroupId: aws.String("g"), MessageDeduplicationId: aws.String("d1"),
		MessageAttributes: map[string]types.MessageAttributeValue{"kind": {DataType: aws.String("String"), StringValue: aws.String("invite")}},
	}); err != nil {
		t.Fatal(err)
	}
	var got []events.SQSMessage
	p := &lambdasqs.Poller{Client: q.client, QueueURL: q.url, VisibilityTimeout: time.Second,
		Handler: func(_ context.Context, ev events.SQSEvent) (events.SQSEventResponse, error) {
			got = append(got, ev.Records...)
			return events.SQSEventResponse{}, nil
		}}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if err := p.Drain(ctx); err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 {
		t.Fatalf("handed %d records, want 1", len(got))
	}
	m := got[0]
	if m.Body != "x" || m.MessageId == "" || m.ReceiptHandle == "" || m.Md5OfBody == "" ||
		m.EventSource != "aws:sqs" || m.EventSourceARN == "" || m.AWSRegion != substitutes.DefaultRegion {
		t.Errorf("record = %+v", m)
	}
	for name, want := range map[string]string{"MessageGroupId": "g", "MessageDeduplicationId": "d1", "ApproximateReceiveCount": "1"} {
		if m.Attributes[name] != want {
			t.Errorf("attribute %s = %q, want %q", name, m.Attributes[name], want)
		}
	}
	for _, name := range []string{"SequenceNumber", "SentTimestamp", "ApproximateFirstReceiveTimestamp"} {
		if m.Attributes[name] == "" {
			t.Errorf("attribute %s missing: %v", name, m.Attributes)
		}
	}
	if a := m.MessageAttributes["kind"]; a.DataType != "String" || aws.ToString(a.StringValue) != "invite" {
		t.Errorf("message attribute kind = %+v", a)
	}
}

func TestAlwaysFailingMessageEndsInDeadLetterQueue(t *testing.T) {
	t.Parallel()
	q := newQueue(t, 2)
	q.send(t, "a", "poison", "after")
	r := &recorder{failing: map[string]int{"poison": 1 << 20}}
	// One message per batch: in a larger batch "after" would be failed with
	// poison (a FIFO consumer fails the rest of a group), count receives too,
	// and follow it to the DLQ, exactly as with Lambda and SQS.
	drainBatches(t, q, r, 1)
	pos := positions(r.bodies())
	if len(pos["poison"]) != 2 || len(pos["after"]) != 1 || pos["after"][0] < pos["poison"][1] {
		t.Fatalf("deliveries %v: want poison twice (maxReceiveCount 2), then after", r.bodies())
	}
	out, err := q.client.ReceiveMessage(context.Background(), &sqs.ReceiveMessageInput{QueueUrl: &q.dlqURL, MaxNumberOfMessages: 10,
		WaitTimeSeconds: 1, AttributeNames: []types.QueueAttributeName{"All"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(out.Messages) != 1 || aws.ToString(out.Messages[0].Body) != "poison" {
		t.Fatalf("DLQ holds %d messages, want the poison one", len(out.Messages))
	}
}

func TestHandlerErrorFailsTheWholeBatch(t *testing.T) {
	t.Parallel()
	q := newQueue(t, 5)
	q.send(t, "a", "a1", "a2")
	r := &recorder{failing: map[string]int{}, batchErr: 1}
	drain(t, q, r)
	pos := positions(r.bodies())
	if len(pos["a1"]) != 1 || len(pos["a2"]) != 1 || pos["a1"][0] > pos["a2"][0] {
		t.Fatalf("after a failed batch: %v, want a1 then a2, once each (the crashed batch recorded nothing)", r.bodies())
	}
}
