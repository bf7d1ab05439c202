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
	return decodeAll(items, decodeWith[auditRecord, domain.AuditEntry])
}
