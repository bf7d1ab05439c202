package dynamo

import (
	"context"
)

// RoleOrganizationsPending says whether the role's move is not finished.
func (s *Store) RoleOrganizationsPending(ctx context.Context, roleID int64) (bool, error) {
	var rec roleRecord
	_, err := s.getItem(ctx, roleKey(roleID), &rec)
	return rec.OrganizationsPending, err
}
