package dynamo

import (
	"context"
	"fmt"

	"github.com/edu-invite/invite/shared/domain"
)

// ListAuditEntriesOfRole returns the audit entries of a role, oldest first.
// It is not part of domain.Store yet; the audit search (spec A1) will need
// it or the gsi1 "AUDIT" partition.
func (s *Store) ListAuditEntriesOfRole(ctx context.Context, roleID int64) ([]domain.AuditEntry, error) {
	in, err := s.partitionQuery("", auditPK(roleID), nil)
	if err != nil {
		return nil, err
	}
	items, err := s.queryAll(ctx, in)
	if err != nil {
		return nil, err
	}
	return decodeAll(items, decodeWith[auditRecord, domain.AuditEntry])
}

// PutProvisioningAudit implements domain.ProvisioningStore. Entries without
// an id get one from the "audit" sequence, as every other entry does (the
// provisioner may write that one sequence item). The entries are independent
// puts: one BatchWriteItem per 25 (the provisioner writes a batch's outcomes
// at once), not a transaction, which would cost twice.
func (s *Store) PutProvisioningAudit(ctx context.Context, entries []domain.AuditEntry) error {
	var unnumbered []int
	for i, e := range entries {
		if e.DeliveryID == "" {
			return domain.Invalidf("a provisioning audit entry needs its delivery id")
		}
		if e.ID == 0 {
			unnumbered = append(unnumbered, i)
		}
	}
	if len(unnumbered) > 0 {
		first, err := s.NextIDs(ctx, auditSequence, len(unnumbered))
		if err != nil {
			return err
		}
		for n, i := range unnumbered {
			entries[i].ID = first + int64(n)
		}
	}
	for start := 0; start < len(entries); start += batchWriteLimit {
		chunk := entries[start:min(start+batchWriteLimit, len(entries))]
		records := make([]any, len(chunk))
		for i, e := range chunk {
			records[i] = s.auditRecord(e)
		}
		if err := s.batchPut(ctx, records); err != nil {
			return fmt.Errorf("put audit of %d deliveries from %s: %w", len(chunk), chunk[0].DeliveryID, err)
		}
	}
	return nil
}
