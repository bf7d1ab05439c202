package service

import (
	"context"
	"slices"
	"sort"

	"github.com/edu-invite/invite/shared/auth"
	"github.com/edu-invite/invite/shared/domain"
)

// The console's invitation history: a role's invitations in every state
// (open, expired, accepted) and a person's invitations. The API's I5 stays
// the open invitations only.

// RoleInvitationHistory is a role's open invitations and the newest of its
// history (expired until purged, accepted: as many as the role's page
// shows, dynamo.RoleViewHistory), newest first, for whoever may read the
// role's invitations (as RoleInvitations).
func (s *Service) RoleInvitationHistory(ctx context.Context, p *auth.Principal, roleID int64) ([]InvitationWithRoles, error) {
	if err := s.authorizeInvitationsRead(ctx, p, roleID); err != nil {
		return nil, err
	}
	invs, err := s.Store.ListInvitationsOfRole(ctx, roleID)
	if err != nil {
		return nil, err
	}
	sort.SliceStable(invs, func(i, j int) bool { return invs[i].ID > invs[j].ID })
	return s.withRoles(ctx, invs)
}

// PersonInvitations are the invitations sent to a person's e-mail address
// (open, expired or accepted, in any role) of which the caller may read
// the invitations of at least one role (mayReadInvitationsOf; the caller
// must see the person: OtherUser), newest first. They are read by the
// address (Store.ListInvitationsOfPerson: one bounded read however long
// the roles' histories are), so an old accepted invitation of a busy role
// stays on the person's page; invitations of roles the caller may not
// read, another organization's among them, are left out as if missing.
func (s *Service) PersonInvitations(ctx context.Context, p *auth.Principal, person UserWithRoles) ([]InvitationWithRoles, error) {
	if p == nil {
		return nil, domain.Unauthenticatedf("authentication required")
	}
	roles := make([]domain.Role, 0, len(person.Roles))
	for _, r := range person.Roles {
		roles = append(roles, r)
	}
	if !p.CanSeeUser(person.User, roles) {
		return nil, s.refuseUser(ctx, p, person.User, roles, domain.Forbiddenf("no access to user %d", person.User.ID))
	}
	invs, err := s.Store.ListInvitationsOfPerson(ctx, person.User.Email)
	if err != nil {
		return nil, err
	}
	withRoles, err := s.withRoles(ctx, invs)
	if err != nil {
		return nil, err
	}
	return slices.DeleteFunc(withRoles, func(iw InvitationWithRoles) bool {
		return !slices.ContainsFunc(iw.Roles, func(r domain.Role) bool { return mayReadInvitationsOf(p, r) })
	}), nil
}
