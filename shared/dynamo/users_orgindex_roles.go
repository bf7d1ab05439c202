package dynamo

import (
	"context"
	"errors"

	"github.com/edu-invite/invite/shared/domain"
)

// rebuildMembersOfRole rebuilds the organization items of every member of
// a role, after the role moved to another organization (a super user's
// rare change). It costs a few requests and one small transaction per
// member: a role of thousands of members takes seconds. Each rebuild is
// idempotent, so a failure part-way is repaired by RebuildUserOrganizations
// of the members (or by moving the role again).
func (s *Store) rebuildMembersOfRole(ctx context.Context, roleID int64) error {
	done := map[int64]bool{}
	token := ""
	for {
		page, next, err := s.ListUserRolesOfRole(ctx, roleID, token, maxPageSize)
		if err != nil {
			return err
		}
		for _, ur := range page {
			if done[ur.UserID] {
				continue
			}
			done[ur.UserID] = true
			err := s.RebuildUserOrganizations(ctx, ur.UserID)
			if errors.Is(err, domain.ErrVersionConflict) {
				// A membership of the user changed meanwhile: read again.
				err = s.RebuildUserOrganizations(ctx, ur.UserID)
			}
			if err != nil {
				return err
			}
		}
		if next == "" {
			return nil
		}
		token = next
	}
}
