package service

import (
	"context"
	"time"
)

// SweepResult says what the outbox sweep re-sent.
type SweepResult struct {
	Sent int `json:"sent"`
}

// sweepGrace leaves just-written deliveries to the request that wrote them:
// it sends them itself right after its transaction commits.
const sweepGrace = time.Minute

// SweepOutbox re-sends deliveries that were committed but never put on the
// queue (the writer crashed or SQS failed between the two), oldest first so
// that each SP still receives them in order. SQS drops a message whose
// deduplication id it saw in the last five minutes, and the provisioner
// tolerates repeats, so a sweep racing a slow writer is harmless.
func (s *Service) SweepOutbox(ctx context.Context, batch int) (SweepResult, error) {
	if batch <= 0 {
		batch = 100
	}
	var res SweepResult
	for {
		pending, err := s.Store.ListUnsentDeliveries(ctx, s.now().Add(-sweepGrace), batch)
		if err != nil {
			return res, err
		}
		if len(pending) == 0 {
			return res, nil
		}
		if err := s.Queue.Enqueue(ctx, pending); err != nil {
			return res, err
		}
		s.dispatchMarkSent(ctx, pending)
		res.Sent += len(pending)
		if len(pending) < batch {
			return res, nil
		}
	}
}
