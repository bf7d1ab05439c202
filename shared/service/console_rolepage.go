package service

import (
	"cmp"
	"context"
	"slices"

	"github.com/edu-invite/invite/shared/auth"
	"github.com/edu-invite/invite/shared/domain"
)

// RolePageSize is how many members a role's page shows at a time.
const RolePageSize = 25

// RolePageView is what the console shows of a role: the role, a page of
// its members by name (User as the members index copies it: names, e-mail,
// home, organization) with where each stands at each SP of the role, the
// continuation of the members ("" on the last page), how many members the
// role has, and every kept invitation to it (open, expired, accepted),
// newest first.
type RolePageView struct {
	Role     domain.Role
	Members  []domain.Member
	Statuses map[int64][]ProvisioningStatus
	// Group is the role's own group at each SP of its applications.
	Group       []ProvisioningStatus
	Next        string
	MemberCount int64
	Invitations []InvitationWithRoles
}

// RolePage is a role's page, to those who may see its members and read its
// invitations. after is Next of the page before ("" for the first); a
// token that is not one is Invalid.
func (s *Service) RolePage(ctx context.Context, p *auth.Principal, roleID int64, after string) (RolePageView, error) {
	if p == nil {
		return RolePageView{}, domain.Unauthenticatedf("authentication required")
	}
	view, err := s.Store.RoleView(ctx, roleID, after, RolePageSize, s.spIDsOfRole)
	if err != nil {
		return RolePageView{}, err
	}
	return s.rolePageOf(ctx, p, view)
}

func (s *Service) spIDsOfRole(r domain.Role) []string {
	var ids []string
	for _, sp := range s.Registry.SPsOfRole(r) {
		ids = append(ids, sp.ID)
	}
	return ids
}

func (s *Service) mayOpenRolePage(ctx context.Context, p *auth.Principal, role domain.Role) error {
	if !p.CanSeeMembers(role) || !mayReadInvitationsOf(p, role) {
		return s.refuseRole(ctx, p, role, domain.Forbiddenf("no access to the members of role %d", role.ID))
	}
	return nil
}

// rolePageOf decides on a page read from the members index.
func (s *Service) rolePageOf(ctx context.Context, p *auth.Principal, view domain.RoleView) (RolePageView, error) {
	if err := s.mayOpenRolePage(ctx, p, view.Role); err != nil {
		return RolePageView{}, err
	}
	byUser := map[int64][]domain.SPLink{}
	for _, l := range view.Links {
		byUser[l.LocalID] = append(byUser[l.LocalID], l)
	}
	out := RolePageView{Role: view.Role, Members: view.Members, Next: view.Next, MemberCount: view.MemberCount,
		Statuses: memberStatuses(view.Members, byUser, s.spIDsOfRole(view.Role), view.GroupLinks),
		Group:    groupStatuses(view.GroupLinks, s.spIDsOfRole(view.Role))}
	roles := map[int64]domain.Role{}
	for _, r := range view.InvitationRoles {
		roles[r.ID] = r
	}
	for _, inv := range view.Invitations {
		iw := InvitationWithRoles{Invitation: inv}
		for _, id := range inv.RoleIDs {
			if r, ok := roles[id]; ok {
				iw.Roles = append(iw.Roles, r)
			}
		}
		out.Invitations = append(out.Invitations, iw)
	}
	slices.SortStableFunc(out.Invitations, func(a, b InvitationWithRoles) int { return cmp.Compare(b.Invitation.ID, a.Invitation.ID) })
	return out, nil
}

// memberRowsOfRole is a role with up to limit of its members as the lists
// show them, from the members index (two requests, one more per 1 MB of
// members). A role with more members is refused rather than answered
// incompletely.
func (s *Service) memberRowsOfRole(ctx context.Context, p *auth.Principal, roleID int64, limit int) (domain.Role, []domain.Member, error) {
	if p == nil {
		return domain.Role{}, nil, domain.Unauthenticatedf("authentication required")
	}
	role, members, more, err := s.Store.MemberRowsOfRole(ctx, roleID, limit)
	if err != nil {
		return domain.Role{}, nil, err
	}
	if !p.CanSeeMembers(role) {
		return domain.Role{}, nil, s.refuseRole(ctx, p, role, domain.Forbiddenf("no access to the members of role %d", roleID))
	}
	if more {
		return domain.Role{}, nil, domain.Invalidf("role %d has more than %d members, more than one request lists", roleID, limit)
	}
	return role, members, nil
}

// groupStatuses is a role's group at each of spIDs: pending where nothing
// was delivered yet.
func groupStatuses(links []domain.SPLink, spIDs []string) []ProvisioningStatus {
	expected := map[string]bool{}
	for _, sp := range spIDs {
		expected[sp] = true
	}
	var at []domain.SPLink
	for _, l := range links {
		if expected[l.SPID] {
			at = append(at, l)
		}
	}
	return statuses(at, expected)
}
