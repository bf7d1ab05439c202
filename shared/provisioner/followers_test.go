package provisioner_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-lambda-go/events"
)

type recordingBackoff struct {
	mu     sync.Mutex
	delays map[string]time.Duration
}

func (b *recordingBackoff) Delay(_ context.Context, m events.SQSMessage, d time.Duration) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.delays[m.MessageId] = d
	return nil
}

// The messages failed behind a group's head get the head's backoff: a FIFO
// group stays locked while any of its messages is invisible, so leaving them
// at the queue's visibility timeout would hold the head's retry that long.
func TestFollowersGetTheHeadsBackoff(t *testing.T) {
	f := newFixture(t, "PATCH", "right-token")
	backoff := &recordingBackoff{delays: map[string]time.Duration{}}
	f.prov.Backoff = backoff
	f.acceptedGuest(t, "erin@example.org")
	ds := f.queue.take()
	ev := batch(t, ds, "down-sp", 3)
	if len(ev.Records) < 2 {
		t.Fatalf("want the group creation and more for down-sp, got %d messages", len(ev.Records))
	}
	resp, err := f.prov.HandleSQS(context.Background(), ev)
	if err != nil {
		t.Fatal(err)
	}
	if len(resp.BatchItemFailures) != len(ev.Records) {
		t.Fatalf("%d of %d failed, want all (the head failed)", len(resp.BatchItemFailures), len(ev.Records))
	}
	head := backoff.delays[ev.Records[0].MessageId]
	if head <= 0 {
		t.Fatalf("head not delayed: %v", backoff.delays)
	}
	for _, m := range ev.Records[1:] {
		if got := backoff.delays[m.MessageId]; got != head {
			t.Fatalf("follower %s delayed %v, want the head's %v", m.MessageId, got, head)
		}
	}
}
