package lambdasqs_test

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-lambda-go/events"
	"github.com/aws/aws-sdk-go-v2/service/sqs"

	"github.com/edu-invite/invite/localstack/lambdasqs"
)

// slowHolds delays the poller's requests that hide held messages for
// minutes, as a slow network or a loaded queue might.
type slowHolds struct {
	next    http.Client
	delay   time.Duration
	delayed atomic.Int32
}

func (s *slowHolds) Do(req *http.Request) (*http.Response, error) {
	if req.Header.Get("X-Amz-Target") == "AmazonSQS.ChangeMessageVisibilityBatch" && req.Body != nil {
		body, err := io.ReadAll(req.Body)
		if err != nil {
			return nil, err
		}
		req.Body = io.NopCloser(bytes.NewReader(body))
		if bytes.Contains(body, []byte(`"VisibilityTimeout":300`)) {
			s.delayed.Add(1)
			time.Sleep(s.delay)
		}
	}
	return s.next.Do(req)
}

// A message held behind its group's running batch and released when that
// batch ends must not stay hidden for the hold's minutes when the hold
// reaches the queue after the release: the release's visibility reset has
// to come last. Otherwise the message fails, the poller waits its normal
// visibility timeout, takes it for dead-lettered and forgets it, and it
// only reappears minutes later.
func TestAReleasedMessageIsNotHiddenByALateHold(t *testing.T) {
	t.Parallel()
	q := newQueue(t, 20)
	slow := &slowHolds{delay: 300 * time.Millisecond}
	client := sqs.NewFromConfig(q.cfg, func(o *sqs.Options) { o.HTTPClient = slow })
	q.send(t, "a", "a-0", "a-1")
	r := &recorder{failing: map[string]int{"a-1": 1}}
	handler := func(ctx context.Context, ev events.SQSEvent) (events.SQSEventResponse, error) {
		if ev.Records[0].Body == "a-0" {
			time.Sleep(100 * time.Millisecond) // long enough for a-1 to be received and held
		}
		return r.handle(ctx, ev)
	}
	p := &lambdasqs.Poller{Client: client, QueueURL: q.url, Handler: handler, VisibilityTimeout: time.Second,
		WaitTime: time.Second, BatchSize: 1, Concurrency: 2}
	// It drains in a few seconds; a message hidden by the late hold would
	// keep it waiting for five minutes.
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := p.Drain(ctx); err != nil {
		t.Fatalf("%v (%d holds delayed)", err, slow.delayed.Load())
	}
	if slow.delayed.Load() == 0 {
		t.Fatal("no message was held: the test did not set up the race")
	}
	if got := r.seen; len(got) != 3 || got[0] != "a-0" || got[1] != "a-1" || got[2] != "a-1" {
		t.Fatalf("handled %v, want a-0, a-1 (failed), a-1", got)
	}
}
