package service

import (
	"context"

	"github.com/edu-invite/invite/shared/auth"
	"github.com/edu-invite/invite/shared/domain"
)

// DeleteUser removes a user (super users only, as the reference): every
// membership with an audit entry and its group removal at each SP, then
// the user in the service and at every SP where it was created. A user with
// many memberships loses them in several transactions, the user going with
// the last one (removeMemberships).
func (s *Service) DeleteUser(ctx context.Context, p *auth.Principal, userID int64) error {
	if p == nil {
		return domain.Unauthenticatedf("authentication required")
	}
	if !p.SuperUser {
		return domain.Forbiddenf("only super users delete users")
	}
	user, err := s.Store.GetUser(ctx, userID)
	if err != nil {
		return err
	}
	urs, err := s.Store.ListUserRolesOfUser(ctx, userID)
	if err != nil {
		return err
	}
	roles, err := s.rolesOf(ctx, urs)
	if err != nil {
		return err
	}
	_, err = s.removeMemberships(ctx, membershipRemoval{by: p, user: user, memberships: urs, roles: roles, deleteUser: true})
	return err
}
