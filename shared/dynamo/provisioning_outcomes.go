package dynamo

import (
	"context"
	"fmt"

	"github.com/edu-invite/invite/shared/domain"
)

// RecordOutcomes implements domain.ProvisioningStore: what a batch of
// deliveries came to, written at once when the batch ends. Each link and
// each finished delivery's item is rewritten whole from the provisioner's
// copy, and each audit entry is added, as independent puts in one
// BatchWriteItem per 25 items (not a transaction, which would cost twice),
// links first.
//
// The puts carry no condition, unlike FinishDelivery's, and need none for a
// delivery that was never replayed: its item exists from the domain change
// that caused it (or, 14 days after an earlier delivery, is written again),
// and a replay is sent only once the delivery is dead-lettered, so no newer
// record of it can be overwritten. A replayed delivery must go through
// FinishDelivery: KindInvalid for one, for a status that is not final, and
// for an audit entry without its delivery id.
//
// Entries without an id are numbered from the audit sequence, reserved in
// blocks (see idBlock).
func (s *Store) RecordOutcomes(ctx context.Context, o domain.Outcomes) error {
	finished, audits := o.Delivered, o.Audit
	for _, l := range o.Links {
		if l.Kind != domain.ResourceUser && l.Kind != domain.ResourceGroup {
			return domain.Invalidf("unknown resource kind %q", l.Kind)
		}
	}
	for _, d := range finished {
		switch {
		case d.Status != domain.DeliveryDelivered && d.Status != domain.DeliveryFailed:
			return domain.Invalidf("delivery %s: outcomes are final statuses, not %q", d.ID, d.Status)
		case d.Replays > 0:
			return domain.Invalidf("delivery %s was replayed: its outcome needs FinishDelivery's condition", d.ID)
		}
	}
	var unnumbered []int
	for i, e := range audits {
		if e.DeliveryID == "" {
			return domain.Invalidf("a provisioning audit entry needs its delivery id")
		}
		if e.ID == 0 {
			unnumbered = append(unnumbered, i)
		}
	}
	if len(unnumbered) > 0 {
		ids, err := s.auditIDs.take(ctx, s, len(unnumbered))
		if err != nil {
			return err
		}
		for n, i := range unnumbered {
			audits[i].ID = ids[n]
		}
	}
	records := make([]any, 0, len(o.Links)+len(finished)+len(audits))
	for _, l := range o.Links {
		records = append(records, newSPLinkRecord(l))
	}
	for _, d := range finished {
		records = append(records, s.deliveryRecord(d))
	}
	for _, e := range audits {
		records = append(records, s.auditRecord(e))
	}
	for start := 0; start < len(records); start += batchWriteLimit {
		if err := s.batchPut(ctx, records[start:min(start+batchWriteLimit, len(records))]); err != nil {
			return fmt.Errorf("record %d links, %d delivery outcomes and %d audit entries: %w", len(o.Links), len(finished), len(audits), err)
		}
	}
	return nil
}
