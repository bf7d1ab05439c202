package testkit

import (
	"context"
	"sync"

	"github.com/edu-invite/invite/shared/domain"
)

// RecordingQueue is a delivery queue that keeps what it is given, for tests
// that check which SCIM work an operation queued. It is safe for
// concurrent use.
type RecordingQueue struct {
	mu  sync.Mutex
	got []domain.Delivery
}

// Enqueue records the deliveries; it never fails.
func (q *RecordingQueue) Enqueue(_ context.Context, ds []domain.Delivery) error {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.got = append(q.got, ds...)
	return nil
}

// Deliveries returns what was queued so far.
func (q *RecordingQueue) Deliveries() []domain.Delivery {
	q.mu.Lock()
	defer q.mu.Unlock()
	return append([]domain.Delivery(nil), q.got...)
}

// Take returns what was queued so far and forgets it.
func (q *RecordingQueue) Take() []domain.Delivery {
	q.mu.Lock()
	defer q.mu.Unlock()
	got := q.got
	q.got = nil
	return got
}
