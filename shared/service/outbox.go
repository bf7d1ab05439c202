package service

import (
	"context"
	"time"

	"github.com/edu-invite/invite/shared/domain"
)

// The outbox: a use case writes the SCIM deliveries it causes in the same
// transaction as its change (newDelivery), then puts them on the queue
// (dispatch); SweepOutbox sends what a crash or an SQS failure left behind.

// dispatch puts committed deliveries on the queue and marks them sent. A
// failure here loses nothing: the deliveries stay pending in the table and
// the outbox sweep sends them; so it is logged, not returned.
func (s *Service) dispatch(ctx context.Context, deliveries []domain.Delivery) {
	if len(deliveries) == 0 {
		return
	}
	if err := s.Queue.Enqueue(ctx, deliveries); err != nil {
		s.log().WarnContext(ctx, "deliveries left for the outbox sweep", "count", len(deliveries), "error", err)
		return
	}
	s.dispatchMarkSent(ctx, deliveries)
}

func (s *Service) dispatchMarkSent(ctx context.Context, deliveries []domain.Delivery) {
	sent := make([]domain.Delivery, len(deliveries))
	for i, d := range deliveries {
		d.Status = domain.DeliverySent
		d.UpdatedAt = s.now()
		sent[i] = d
	}
	if err := s.Store.MarkDeliveriesSent(ctx, sent); err != nil {
		s.log().WarnContext(ctx, "deliveries sent but not all marked", "count", len(sent), "error", err)
	}
}

// newDelivery builds a pending delivery for the current request.
func (s *Service) newDelivery(ctx context.Context, sp domain.ServiceProvider, kind domain.DeliveryKind, userID, roleID int64) domain.Delivery {
	now := s.now()
	return domain.Delivery{ID: domain.NewDeliveryID(now), SPID: sp.ID, OrderKey: domain.OrderKeyOf(sp, kind, userID, roleID),
		Kind: kind, UserID: userID, RoleID: roleID,
		CorrelationID: domain.CorrelationID(ctx), CreatedAt: now, UpdatedAt: now, Status: domain.DeliveryPending}
}

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
