package lambdasqs_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-lambda-go/events"

	"github.com/edu-invite/invite/localstack/lambdasqs"
)

// A slow batch of one group does not hold up another group: group b is
// handled completely while a's first message is still in the handler.
func TestSlowGroupDoesNotBlockOtherGroups(t *testing.T) {
	t.Parallel()
	q := newQueue(t, 5)
	q.send(t, "a", "a1", "a2")
	q.send(t, "b", "b1", "b2", "b3")
	bDone := make(chan struct{})
	var mu sync.Mutex
	var seen []string
	bLeft := 3
	handler := func(_ context.Context, ev events.SQSEvent) (events.SQSEventResponse, error) {
		for _, m := range ev.Records {
			if m.Body == "a1" {
				select {
				case <-bDone:
				case <-time.After(10 * time.Second):
				}
			}
			mu.Lock()
			seen = append(seen, m.Body)
			if m.Body[0] == 'b' {
				if bLeft--; bLeft == 0 {
					close(bDone)
				}
			}
			mu.Unlock()
		}
		return events.SQSEventResponse{}, nil
	}
	p := &lambdasqs.Poller{Client: q.client, QueueURL: q.url, Handler: handler, VisibilityTimeout: 15 * time.Second,
		WaitTime: time.Second, BatchSize: 1, Concurrency: 4}
	ctx, cancel := context.WithTimeout(context.Background(), 40*time.Second)
	defer cancel()
	started := time.Now()
	if err := p.Drain(ctx); err != nil {
		t.Fatal(err)
	}
	if took := time.Since(started); took > 8*time.Second {
		t.Fatalf("drain took %v: group b waited for a's slow batch", took)
	}
	pos := positions(seen)
	if len(seen) != 5 || pos["b3"][0] > pos["a1"][0] || pos["a1"][0] > pos["a2"][0] {
		t.Fatalf("handled %v, want b1..b3 before a1, then a2", seen)
	}
}

// groupChecker is a handler that checks, while it runs, that no two batches
// of one group are in the handler at once and that a group's message is
// handed over only after every earlier message of the group succeeded.
// Messages named in failing fail that many times (and the rest of their
// group in the batch with them, as a FIFO consumer does).
type groupChecker struct {
	mu        sync.Mutex
	active    map[string]int
	succeeded map[string]int // group -> messages succeeded (bodies are "<group>-<n>", n from 0)
	failing   map[string]int
	errs      []string
	handled   int
}

func (c *groupChecker) handle(_ context.Context, ev events.SQSEvent) (events.SQSEventResponse, error) {
	groups := map[string]bool{}
	c.mu.Lock()
	for _, m := range ev.Records {
		g := m.Attributes["MessageGroupId"]
		if !groups[g] {
			groups[g] = true
			if c.active[g]++; c.active[g] > 1 {
				c.errs = append(c.errs, fmt.Sprintf("two batches of group %s at once", g))
			}
		}
	}
	c.mu.Unlock()
	time.Sleep(time.Duration(rand.IntN(30)) * time.Millisecond)

	var resp events.SQSEventResponse
	c.mu.Lock()
	defer c.mu.Unlock()
	failedGroups := map[string]bool{}
	for _, m := range ev.Records {
		g := m.Attributes["MessageGroupId"]
		var group string
		var n int
		fmt.Sscanf(m.Body, "%1s-%d", &group, &n)
		if failedGroups[g] {
			resp.BatchItemFailures = append(resp.BatchItemFailures, events.SQSBatchItemFailure{ItemIdentifier: m.MessageId})
			continue
		}
		if n != c.succeeded[g] {
			c.errs = append(c.errs, fmt.Sprintf("%s handed over after %d messages of its group succeeded", m.Body, c.succeeded[g]))
		}
		c.handled++
		if c.failing[m.Body] > 0 {
			c.failing[m.Body]--
			failedGroups[g] = true
			resp.BatchItemFailures = append(resp.BatchItemFailures, events.SQSBatchItemFailure{ItemIdentifier: m.MessageId})
			continue
		}
		c.succeeded[g] = n + 1
	}
	for g := range groups {
		c.active[g]--
	}
	return resp, nil
}

func TestGroupsRunConcurrentlyButEachInOrderUnderFailures(t *testing.T) {
	for _, batchSize := range []int{1, 3, 10} {
		t.Run(fmt.Sprintf("batch size %d", batchSize), func(t *testing.T) {
			t.Parallel()
			q := newQueue(t, 20)
			const groups, perGroup = 6, 6
			c := &groupChecker{active: map[string]int{}, succeeded: map[string]int{}, failing: map[string]int{}}
			for i := 0; i < groups; i++ {
				g := string(rune('a' + i))
				var bodies []string
				for n := 0; n < perGroup; n++ {
					bodies = append(bodies, fmt.Sprintf("%s-%d", g, n))
				}
				q.send(t, g, bodies...)
				c.failing[fmt.Sprintf("%s-%d", g, 1+i%3)] = 1 + i%2 // every group fails once or twice
			}
			p := &lambdasqs.Poller{Client: q.client, QueueURL: q.url, Handler: c.handle, VisibilityTimeout: time.Second,
				WaitTime: time.Second, BatchSize: batchSize, Concurrency: 4}
			// It drains in ~5 s. The deadline only bounds a failing run; runs
			// that once took minutes were a message hidden by a late hold
			// (TestAReleasedMessageIsNotHiddenByALateHold), not a slow machine.
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			if err := p.Drain(ctx); err != nil {
				t.Fatal(err)
			}
			c.mu.Lock()
			defer c.mu.Unlock()
			if len(c.errs) > 0 {
				t.Fatalf("%d violations, first: %v", len(c.errs), c.errs[:min(5, len(c.errs))])
			}
			for i := 0; i < groups; i++ {
				if g := string(rune('a' + i)); c.succeeded[g] != perGroup {
					t.Fatalf("group %s: %d of %d messages succeeded", g, c.succeeded[g], perGroup)
				}
			}
			if want := groups*perGroup + groups + groups/2; c.handled != want {
				t.Fatalf("handled %d times, want %d (each message once plus the failures)", c.handled, want)
			}
		})
	}
}
