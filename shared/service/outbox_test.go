package service_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/edu-invite/invite/shared/domain"
)

// downQueue refuses every message, as SQS would during an outage or as a
// writer that crashed after its commit never sent.
type downQueue struct{}

func (downQueue) Enqueue(context.Context, []domain.Delivery) error {
	return errors.New("sqs unavailable")
}

func TestSweepSendsWhatTheWriterNeverSent(t *testing.T) {
	s, q := newService(t)
	s.Queue = downQueue{}
	role, err := s.CreateRole(context.Background(), root, wikiRole("Wiki"))
	if err != nil {
		t.Fatalf("a queue outage must not fail the request: %v", err)
	}
	// Just written: left to the writer for a minute.
	s.Queue = q
	if res, err := s.SweepOutbox(context.Background(), 10); err != nil || res.Sent != 0 {
		t.Fatalf("early sweep = %+v, %v", res, err)
	}
	later := now.Add(2 * time.Minute)
	s.Clock = func() time.Time { return later }
	res, err := s.SweepOutbox(context.Background(), 10)
	if err != nil || res.Sent != 2 || len(q.Deliveries()) != 2 || q.Deliveries()[0].RoleID != role.ID || q.Deliveries()[0].Kind != domain.DeliverGroupCreate {
		t.Fatalf("sweep = %+v, %v; queued %+v", res, err, q.Deliveries())
	}
	// Sent is recorded: the next sweep sends nothing again.
	if res, _ := s.SweepOutbox(context.Background(), 10); res.Sent != 0 {
		t.Fatalf("second sweep re-sent %d", res.Sent)
	}
}
