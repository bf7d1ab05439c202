package dynamo

import (
	"context"
	"fmt"
	"time"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"

	"github.com/edu-invite/invite/shared/domain"
)

// GetDelivery reads one outbox item.
func (s *Store) GetDelivery(ctx context.Context, deliveryID string) (domain.Delivery, error) {
	var rec deliveryRecord
	found, err := s.getItem(ctx, deliveryKey(deliveryID), &rec)
	if err != nil {
		return domain.Delivery{}, err
	}
	if !found {
		return domain.Delivery{}, deliveryNotFound(deliveryID)
	}
	return rec.domain()
}

// UpdateDeliveryStatus records Status, Attempts, LastError and UpdatedAt
// (now when zero) of d on the stored delivery; the other fields are kept as
// stored, so a caller may pass only the id and the status fields. The item
// is rewritten whole rather than updated because its index keys depend on
// the status, and a Put replaces them all at once.
func (s *Store) UpdateDeliveryStatus(ctx context.Context, d domain.Delivery) error {
	stored, err := s.GetDelivery(ctx, d.ID)
	if err != nil {
		return err
	}
	// "sent" is recorded by the writer after SQS accepted the message; the
	// provisioner may already have delivered it by then, and a final status
	// must not be overwritten by that late bookkeeping.
	markingSent := d.Status == domain.DeliverySent
	if markingSent && stored.Status != domain.DeliveryPending {
		return nil
	}
	stored.Status = d.Status
	stored.Replays = max(stored.Replays, d.Replays)
	stored.Attempts = d.Attempts
	stored.LastError = d.LastError
	stored.UpdatedAt = d.UpdatedAt
	if stored.UpdatedAt.IsZero() {
		stored.UpdatedAt = s.now()
	}
	cond := expression.AttributeExists(expression.Name(attrPK))
	if markingSent {
		cond = cond.And(expression.Name("status").Equal(expression.Value(string(domain.DeliveryPending))))
	}
	held, err := s.putIf(ctx, s.deliveryRecord(stored), cond)
	switch {
	case err != nil:
		return fmt.Errorf("update delivery %s: %w", d.ID, err)
	case !held && markingSent:
		return nil // delivered (or failed) between the read and the write
	case !held:
		return deliveryNotFound(d.ID) // TTL removed it between the read and the write
	}
	return nil
}

// FinishDelivery writes a delivered or failed delivery whole, from the
// provisioner's copy, in one conditional write: the item must exist and
// carry no more replays than this copy (a replay sent meanwhile is newer and
// keeps its own record). It saves UpdateDeliveryStatus's read on every
// delivery.
func (s *Store) FinishDelivery(ctx context.Context, d domain.Delivery) (bool, error) {
	if d.Status != domain.DeliveryDelivered && d.Status != domain.DeliveryFailed {
		return false, domain.Invalidf("FinishDelivery records final statuses only, not %q", d.Status)
	}
	if d.UpdatedAt.IsZero() {
		d.UpdatedAt = s.now()
	}
	cond := expression.AttributeExists(expression.Name(attrPK)).And(expression.Or(
		expression.AttributeNotExists(expression.Name("replays")),
		expression.Name("replays").LessThanEqual(expression.Value(d.Replays))))
	held, err := s.putIf(ctx, s.deliveryRecord(d), cond)
	if err != nil {
		return false, fmt.Errorf("finish delivery %s: %w", d.ID, err)
	}
	return held, nil
}

// ListUnsentDeliveries returns up to limit pending deliveries created
// strictly before createdBefore, oldest first (gsi1, eventually consistent:
// the sweep runs well after the writes it looks for).
func (s *Store) ListUnsentDeliveries(ctx context.Context, createdBefore time.Time, limit int) ([]domain.Delivery, error) {
	if limit <= 0 {
		limit = defaultPageSize
	}
	in, err := s.partitionQuery(indexGSI1, outboxPK(domain.DeliveryPending), sortKeyBefore(sortableTime(createdBefore)))
	if err != nil {
		return nil, err
	}
	return queryUpTo(ctx, s, in, limit, decodeWith[deliveryRecord, domain.Delivery])
}

// ListFailedDeliveries implements domain.ProvisioningStore (gsi2 DLQ#<sp>;
// for every SP, gsi1 OUTBOX#failed, which holds them in creation order).
func (s *Store) ListFailedDeliveries(ctx context.Context, spID string, limit int) ([]domain.Delivery, error) {
	if limit <= 0 {
		limit = defaultPageSize
	}
	index, partition := indexGSI2, "DLQ#"+spID
	if spID == "" {
		index, partition = indexGSI1, outboxPK(domain.DeliveryFailed)
	}
	in, err := s.partitionQuery(index, partition, nil)
	if err != nil {
		return nil, err
	}
	return queryUpTo(ctx, s, in, limit, decodeWith[deliveryRecord, domain.Delivery])
}

func deliveryNotFound(deliveryID string) error {
	return domain.NotFoundf("delivery %s not found", deliveryID)
}

// ListQueuedDeliveries returns every delivery that was put on the queue and
// is not yet delivered or failed, oldest first (gsi1 OUTBOX#sent). The local
// stack re-queues them after a restart: its queue substitute keeps messages
// in memory only, while SQS keeps them.
func (s *Store) ListQueuedDeliveries(ctx context.Context) ([]domain.Delivery, error) {
	in, err := s.partitionQuery(indexGSI1, outboxPK(domain.DeliverySent), nil)
	if err != nil {
		return nil, err
	}
	items, err := s.queryAll(ctx, in)
	if err != nil {
		return nil, err
	}
	return decodeAll(items, decodeWith[deliveryRecord, domain.Delivery])
}
