package dynamo

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/aws"

	"github.com/edu-invite/invite/shared/domain"
)

// ListRecentAuditEntries implements domain.MaintenanceStore: a Query of the
// role's audit partition, or of gsi1 AUDIT, newest first, up to limit.
func (s *Store) ListRecentAuditEntries(ctx context.Context, roleID int64, limit int) ([]domain.AuditEntry, error) {
	if limit <= 0 {
		limit = 100
	}
	index, partition := indexGSI1, auditPartition
	if roleID != 0 {
		index, partition = "", auditPK(roleID)
	}
	in, err := s.partitionQuery(index, partition, nil)
	if err != nil {
		return nil, err
	}
	in.ScanIndexForward = aws.Bool(false)
	return queryUpTo(ctx, s, in, limit, decodeWith[auditRecord, domain.AuditEntry])
}

// ListAllRoles implements domain.MaintenanceStore: the gsi2 ROLES
// partition, which holds every role by name.
func (s *Store) ListAllRoles(ctx context.Context) ([]domain.Role, error) {
	in, err := s.partitionQuery(indexGSI2, rolesPK, nil)
	if err != nil {
		return nil, err
	}
	items, err := s.queryAll(ctx, in)
	if err != nil {
		return nil, err
	}
	return decodeAll(items, decodeRole)
}
