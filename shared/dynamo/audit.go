package dynamo

import (
	"context"

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
	entries := make([]domain.AuditEntry, 0, len(items))
	for _, av := range items {
		var rec auditRecord
		if err := unmarshal(av, &rec); err != nil {
			return nil, err
		}
		e, err := rec.domain()
		if err != nil {
			return nil, err
		}
		entries = append(entries, e)
	}
	return entries, nil
}

// PutProvisioningAudit implements domain.ProvisioningStore.
func (s *Store) PutProvisioningAudit(ctx context.Context, entries []domain.AuditEntry) error {
	t := s.newTxn()
	for _, e := range entries {
		if e.DeliveryID == "" {
			return domain.Invalidf("a provisioning audit entry needs its delivery id")
		}
	}
	t.putAudit(entries)
	return t.commit(ctx)
}
