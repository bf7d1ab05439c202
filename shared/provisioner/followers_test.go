package provisioner_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-lambda-go/events"

	"github.com/edu-invite/invite/shared/domain"
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
	ds := f.queue.Take()
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

// A membership delivered before its group's creation (they go in different
// lines, which run concurrently) does not create the group itself: two
// lines that both look up and find nothing would create it twice. It is
// retried, and adopts the group its own line created.
func TestMembershipWaitsForTheGroupsOwnLine(t *testing.T) {
	f := newFixture(t, "PATCH", "right-token")
	f.acceptedGuest(t, "frank@example.org")
	var groupCreate, rest []domain.Delivery
	for _, d := range f.queue.Take() {
		switch {
		case d.SPID != "wiki-sp":
		case d.Kind == domain.DeliverGroupCreate:
			groupCreate = append(groupCreate, d)
		default:
			rest = append(rest, d)
		}
	}
	if len(groupCreate) != 1 || len(rest) != 2 {
		t.Fatalf("deliveries: %d group creations, %d others", len(groupCreate), len(rest))
	}
	ctx := context.Background()
	resp, err := f.prov.HandleSQS(ctx, batch(t, rest, "wiki-sp", 1)) // user.create, member.add
	if err != nil {
		t.Fatal(err)
	}
	if len(resp.BatchItemFailures) != 1 || len(f.sp.Groups()) != 0 || len(f.sp.Users()) != 1 || len(f.dlq.reasons) != 0 {
		t.Fatalf("failures %v, groups %d, users %d, dead letters %v: want the membership retried, no group made",
			resp.BatchItemFailures, len(f.sp.Groups()), len(f.sp.Users()), f.dlq.reasons)
	}
	for _, ev := range []events.SQSEvent{batch(t, groupCreate, "wiki-sp", 1), batch(t, rest[1:], "wiki-sp", 2)} {
		if resp, err := f.prov.HandleSQS(ctx, ev); err != nil || len(resp.BatchItemFailures) != 0 {
			t.Fatalf("HandleSQS = %v, %v", resp, err)
		}
	}
	if gs := f.sp.Groups(); len(gs) != 1 || len(gs[0].Members) != 1 {
		t.Fatalf("groups at the SP: %+v, want one with the member", gs)
	}
}
