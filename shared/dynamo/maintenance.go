package dynamo

import (
	"context"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"

	"github.com/edu-invite/invite/shared/domain"
)

// ListRecentAuditEntries implements domain.MaintenanceStore: a Query of the
// role's audit partition, or of gsi1 AUDIT, newest first, up to limit; the
// sort keys begin with the time, so "before" is a key condition.
func (s *Store) ListRecentAuditEntries(ctx context.Context, roleID int64, before time.Time, limit int) ([]domain.AuditEntry, error) {
	if limit <= 0 {
		limit = 100
	}
	index, partition := indexGSI1, auditPartition
	if roleID != 0 {
		index, partition = "", auditPK(roleID)
	}
	var narrow func(expression.KeyBuilder) expression.KeyConditionBuilder
	if !before.IsZero() {
		narrow = func(sk expression.KeyBuilder) expression.KeyConditionBuilder {
			return sk.LessThan(expression.Value(sortableTime(before)))
		}
	}
	in, err := s.partitionQuery(index, partition, narrow)
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
