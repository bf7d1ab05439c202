package service

import (
	"cmp"
	"context"
	"slices"
	"strconv"
	"strings"

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

// fallbackToken marks a page token of the in-memory paging of a role whose
// members index is not complete: "@" and the offset.
const fallbackToken = "@"

// RolePage is a role's page, to those who may see its members and read its
// invitations. after is Next of the page before ("" for the first); a
// token that is not one is Invalid.
func (s *Service) RolePage(ctx context.Context, p *auth.Principal, roleID int64, after string) (RolePageView, error) {
	if p == nil {
		return RolePageView{}, domain.Unauthenticatedf("authentication required")
	}
	if !strings.HasPrefix(after, fallbackToken) {
		view, ok, err := s.Store.RoleView(ctx, roleID, after, RolePageSize, s.spIDsOfRole)
		if err != nil {
			return RolePageView{}, err
		}
		if ok {
			return s.rolePageOf(ctx, p, view)
		}
	}
	return s.rolePageInMemory(ctx, p, roleID, after)
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

// rolePageInMemory is the page of a role whose members index is not
// complete: every member read, sorted by name and paged here.
func (s *Service) rolePageInMemory(ctx context.Context, p *auth.Principal, roleID int64, after string) (RolePageView, error) {
	offset := 0
	if after != "" {
		n, err := strconv.Atoi(strings.TrimPrefix(after, fallbackToken))
		if err != nil || n < 0 || !strings.HasPrefix(after, fallbackToken) {
			return RolePageView{}, domain.Invalidf("invalid page token")
		}
		offset = n
	}
	role, members, err := s.MembersOfRole(ctx, p, roleID)
	if err != nil {
		return RolePageView{}, err
	}
	if err := s.mayOpenRolePage(ctx, p, role); err != nil {
		return RolePageView{}, err
	}
	// The members index's order: the lower display name (else e-mail), "#", the id.
	key := func(m domain.Member) string {
		return strings.ToLower(cmp.Or(m.User.DisplayName(), m.User.Email)) + "#" + strconv.FormatInt(m.User.ID, 10)
	}
	slices.SortStableFunc(members, func(a, b domain.Member) int { return strings.Compare(key(a), key(b)) })
	out := RolePageView{Role: role, MemberCount: int64(len(members))}
	if offset < len(members) {
		out.Members = members[offset:min(offset+RolePageSize, len(members))]
	}
	if offset+RolePageSize < len(members) {
		out.Next = fallbackToken + strconv.Itoa(offset+RolePageSize)
	}
	if out.Statuses, err = s.MembersProvisioning(ctx, p, role, out.Members); err != nil {
		return RolePageView{}, err
	}
	gl, err := s.Store.ListLinks(ctx, domain.ResourceGroup, role.ID)
	if err != nil {
		return RolePageView{}, err
	}
	out.Group = groupStatuses(gl, s.spIDsOfRole(role))
	if out.Invitations, err = s.RoleInvitationHistory(ctx, p, roleID); err != nil {
		return RolePageView{}, err
	}
	return out, nil
}

// memberRowsOfRole is a role with up to limit of its members as the lists
// show them: from the members index when the store has a complete one (two
// requests, one more per 1 MB of members), else with their users
// (MembersOfRole, at most MaxMembersListed). A role with more members is
// refused rather than answered incompletely.
func (s *Service) memberRowsOfRole(ctx context.Context, p *auth.Principal, roleID int64, limit int) (domain.Role, []domain.Member, error) {
	if p == nil {
		return domain.Role{}, nil, domain.Unauthenticatedf("authentication required")
	}
	role, members, more, listed, err := s.Store.MemberRowsOfRole(ctx, roleID, limit)
	if err != nil {
		return domain.Role{}, nil, err
	}
	if !listed {
		return s.MembersOfRole(ctx, p, roleID)
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
