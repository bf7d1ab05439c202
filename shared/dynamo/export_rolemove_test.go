package dynamo

import (
	"context"

	"github.com/edu-invite/invite/shared/domain"
)

// UpdateRoleStoppingBeforeMembers is UpdateRole stopped after the role's
// transaction, as a crash there leaves it: the members' organization items
// not rebuilt.
func (s *Store) UpdateRoleStoppingBeforeMembers(ctx context.Context, r domain.Role) error {
	_, err := s.updateRole(ctx, r, nil)
	return err
}

// RoleOrganizationsPending says whether the role's move is not finished.
func (s *Store) RoleOrganizationsPending(ctx context.Context, roleID int64) (bool, error) {
	var rec roleRecord
	_, err := s.getItem(ctx, roleKey(roleID), &rec)
	return rec.OrganizationsPending, err
}
