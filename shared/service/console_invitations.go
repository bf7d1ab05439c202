package service

import (
	"context"
	"slices"
	"sort"
	"strings"

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
	if p == nil {
		return nil, domain.Unauthenticatedf("authentication required")
	}
	role, err := s.Store.GetRole(ctx, roleID)
	if err != nil {
		return nil, err
	}
	if !mayReadInvitationsOf(p, role) {
		return nil, s.refuseRole(ctx, p, role, domain.Forbiddenf("no access to the invitations of role %d", roleID))
	}
	invs, err := s.Store.ListInvitationsOfRole(ctx, roleID)
	if err != nil {
		return nil, err
	}
	sort.SliceStable(invs, func(i, j int) bool { return invs[i].ID > invs[j].ID })
	return s.withRoles(ctx, invs)
}

// PersonInvitations are the invitations sent to a person's e-mail address
// (open, or among the newest of each role's history) in the roles the
// person holds and whose invitations the caller may read
// (the caller must see the person: OtherUser), newest first. Invitations
// are found through the roles' invitation links, as the table keeps no
// index of invitations by address: an open invitation to a role the person
// does not hold yet is on that role's page, not here.
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
	seen := map[int64]bool{}
	var out []domain.Invitation
	for _, r := range roles {
		if !mayReadInvitationsOf(p, r) {
			continue
		}
		invs, err := s.Store.ListInvitationsOfRole(ctx, r.ID)
		if err != nil {
			return nil, err
		}
		for _, inv := range invs {
			if !seen[inv.ID] && strings.EqualFold(inv.Email, person.User.Email) {
				seen[inv.ID] = true
				out = append(out, inv)
			}
		}
	}
	slices.SortFunc(out, func(a, b domain.Invitation) int { return int(b.ID - a.ID) })
	return s.withRoles(ctx, out)
}
