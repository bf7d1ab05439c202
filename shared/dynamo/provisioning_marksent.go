package dynamo

import (
	"context"
	"errors"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"

	"github.com/edu-invite/invite/shared/domain"
)

// errNoLongerPending: a delivery of a batch marked sent had moved on.
var errNoLongerPending = errors.New("delivery no longer pending")

// MarkDeliveriesSent implements domain.ProvisioningStore: up to 100
// deliveries in one transaction of updates without reads, each only while
// the delivery is still pending (the provisioner may have finished it
// already, and a final status stays). When one of a transaction's
// deliveries has moved on, its deliveries are marked one by one, as
// UpdateDeliveryStatus marks them.
func (s *Store) MarkDeliveriesSent(ctx context.Context, deliveries []domain.Delivery) error {
	for start := 0; start < len(deliveries); start += maxTransactionItems {
		chunk := deliveries[start:min(start+maxTransactionItems, len(deliveries))]
		if len(chunk) == 1 {
			if err := s.markSentOneByOne(ctx, chunk); err != nil {
				return err
			}
			continue
		}
		t := s.newTxn()
		for _, d := range chunk {
			updatedAt := d.UpdatedAt
			if updatedAt.IsZero() {
				updatedAt = s.now()
			}
			upd := expression.Set(expression.Name("status"), expression.Value(string(domain.DeliverySent))).
				Set(expression.Name("updatedAt"), expression.Value(formatTime(updatedAt))).
				Set(expression.Name(attrGSI1PK), expression.Value(outboxPK(domain.DeliverySent)))
			t.updateItem(deliveryKey(d.ID), upd, expression.Name("status").Equal(expression.Value(string(domain.DeliveryPending))),
				always(errNoLongerPending))
		}
		if err := t.commit(ctx); err != nil {
			// One moved on (or the transaction failed): each on its own.
			if err := s.markSentOneByOne(ctx, chunk); err != nil {
				return err
			}
		}
	}
	return nil
}

func (s *Store) markSentOneByOne(ctx context.Context, deliveries []domain.Delivery) error {
	var first error
	for _, d := range deliveries {
		d.Status = domain.DeliverySent
		if err := s.UpdateDeliveryStatus(ctx, d); err != nil && first == nil {
			first = err
		}
	}
	return first
}
