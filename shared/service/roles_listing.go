package service

import (
	"cmp"
	"context"
	"slices"
	"strings"

	"github.com/edu-invite/invite/shared/auth"
	"github.com/edu-invite/invite/shared/domain"
)

// ListRoles is R1: the roles a caller may see (auth.RoleListScopeOf), as a
// page. The query matches word prefixes of name and description,
// case-insensitively, sorted by name (or id, description, createdAt,
// userRoleCount) in either direction. With force (the reference's default)
// the query and sort are ignored and the page is by name, of up to
// RoleForcedPageSize roles: every role of a scope that size in one page, as
// the reference's clients expect, and a bounded page of a larger one
// (pageNumber pages on; totalElements tells how many there are).
//
// A page costs what one page costs however many roles the scope holds: the
// store's sorted listings (Store.ListRolesPage, which counts the page's
// members) for super users and an organization, plus the few roles a
// caller holds outside it (read by id, counted, merged in memory). The
// store's listings are trusted: data of an older version is listed once
// the index repair has run, never by reading the scope whole.
func (s *Service) ListRoles(ctx context.Context, p *auth.Principal, req domain.PageRequest, force bool) (domain.Page[domain.Role], domain.PageRequest, error) {
	return s.listRoles(ctx, p, req, force, true)
}

// listRoles is ListRoles, with counts the page's member counts
// (UserRoleCount); without, for a list that shows none, no counter is
// read unless the page is sorted by them.
func (s *Service) listRoles(ctx context.Context, p *auth.Principal, req domain.PageRequest, force, counts bool) (domain.Page[domain.Role], domain.PageRequest, error) {
	if p == nil {
		return domain.Page[domain.Role]{}, req, domain.Unauthenticatedf("authentication required")
	}
	if force {
		req = domain.PageRequest{Number: max(req.Number, 0), Size: RoleForcedPageSize, Sort: "name"}
	}
	scope := auth.RoleListScopeOf(p)
	var page domain.Page[domain.Role]
	var err error
	switch scope {
	case auth.RolesAll:
		page, err = s.Store.ListRolesPage(ctx, domain.RoleListQuery{Page: req, NoMemberCounts: !counts})
	case auth.RolesOfOrganization:
		page, err = s.organizationRolesPage(ctx, p, req, counts)
	case auth.RolesHeld:
		// The roles the caller holds (a few, read by id): in memory.
		if page, err = s.rolesPageInMemory(ctx, p, req); err == nil && counts {
			err = s.countMembers(ctx, page.Items)
		}
	default:
		return domain.Page[domain.Role]{}, req, domain.Forbiddenf("no roles to list: at least INVITER on a role is needed")
	}
	if err != nil {
		return domain.Page[domain.Role]{}, req, err
	}
	return page, req, nil
}

// RoleForcedPageSize is the page of R1 with force: every role of a scope
// of up to this many, a bounded page of a larger one.
var RoleForcedPageSize = 1000

// organizationRolesPage is a page of an organization's roles from the
// store's listing, with the roles the caller holds (at least INVITER) in
// other organizations merged in: the store is asked for the first
// offset+size roles of its listing, the held ones that match are added,
// and the window is cut from the union.
func (s *Service) organizationRolesPage(ctx context.Context, p *auth.Principal, req domain.PageRequest, counts bool) (domain.Page[domain.Role], error) {
	q := domain.RoleListQuery{OrganizationGUID: p.OrganizationGUID, Page: req, NoMemberCounts: !counts}
	var held []int64
	for id, a := range p.Memberships {
		if a.AtLeast(domain.Inviter) {
			held = append(held, id)
		}
	}
	var others []domain.Role
	if len(held) > 0 {
		roles, err := s.Store.GetRoles(ctx, held)
		if err != nil {
			return domain.Page[domain.Role]{}, err
		}
		for _, r := range roles {
			if r.OrganizationGUID != p.OrganizationGUID {
				others = append(others, r)
			}
		}
		others = filterRoles(others, req.Query)
	}
	if len(others) == 0 {
		return s.Store.ListRolesPage(ctx, q)
	}
	q.Page.Number, q.Page.Size = 0, req.Offset()+req.Size
	page, err := s.Store.ListRolesPage(ctx, q)
	if err != nil {
		return page, err
	}
	// Counted before the cut when the page is sorted by them, else only
	// those on the page (and none for a list that shows no counts).
	byCount := req.Sort == domain.RoleSortUserRoleCount
	if byCount {
		if err := s.countMembers(ctx, others); err != nil {
			return domain.Page[domain.Role]{}, err
		}
	}
	union := append(page.Items, others...)
	sortRoles(union, req.Sort, req.Descending)
	from := min(req.Offset(), len(union))
	items := slices.Clone(union[from:min(from+req.Size, len(union))])
	if counts && !byCount {
		var shown []int // the held roles of other organizations on the page
		for i, r := range items {
			if r.OrganizationGUID != p.OrganizationGUID {
				shown = append(shown, i)
			}
		}
		if len(shown) > 0 {
			roles := make([]domain.Role, len(shown))
			for j, i := range shown {
				roles[j] = items[i]
			}
			if err := s.countMembers(ctx, roles); err != nil {
				return domain.Page[domain.Role]{}, err
			}
			for j, i := range shown {
				items[i] = roles[j]
			}
		}
	}
	return domain.Page[domain.Role]{Items: items, Total: page.Total + int64(len(others))}, nil
}

// rolesPageInMemory reads the roles a caller holds (its scope: a few,
// by id) and cuts the page in memory.
func (s *Service) rolesPageInMemory(ctx context.Context, p *auth.Principal, req domain.PageRequest) (domain.Page[domain.Role], error) {
	roles, err := s.rolesInScope(ctx, p)
	if err != nil {
		return domain.Page[domain.Role]{}, err
	}
	roles = filterRoles(roles, req.Query)
	if req.Sort == domain.RoleSortUserRoleCount {
		if err := s.countMembers(ctx, roles); err != nil {
			return domain.Page[domain.Role]{}, err
		}
	}
	sortRoles(roles, req.Sort, req.Descending)
	from := min(req.Offset(), len(roles))
	return domain.Page[domain.Role]{Items: slices.Clone(roles[from:min(from+req.Size, len(roles))]),
		Total: int64(len(roles))}, nil
}

func (s *Service) rolesInScope(ctx context.Context, p *auth.Principal) ([]domain.Role, error) {
	var roles []domain.Role
	var err error
	switch auth.RoleListScopeOf(p) {
	case auth.RolesAll:
		return s.Store.ListAllRoles(ctx)
	case auth.RolesOfOrganization:
		roles, err = s.Store.ListRolesByOrganization(ctx, p.OrganizationGUID)
	case auth.RolesHeld:
	default:
		return nil, domain.Forbiddenf("no roles to list: at least INVITER on a role is needed")
	}
	if err != nil {
		return nil, err
	}
	var held []int64
	for id, a := range p.Memberships {
		if a.AtLeast(domain.Inviter) && !slices.ContainsFunc(roles, func(r domain.Role) bool { return r.ID == id }) {
			held = append(held, id)
		}
	}
	if len(held) > 0 {
		more, err := s.Store.GetRoles(ctx, held)
		if err != nil {
			return nil, err
		}
		roles = append(roles, more...)
	}
	sortRoles(roles, "name", false)
	return roles, nil
}

// countMembers fills UserRoleCount of each role from the store's member
// counters, kept by every transaction that adds or removes memberships
// (one BatchGetItem per 25 roles).
func (s *Service) countMembers(ctx context.Context, roles []domain.Role) error {
	ids := make([]int64, len(roles))
	for i, r := range roles {
		ids[i] = r.ID
	}
	counts, err := s.Store.CountMembersOfRoles(ctx, ids)
	if err != nil {
		return err
	}
	for i := range roles {
		roles[i].UserRoleCount = counts[roles[i].ID]
	}
	return nil
}

// filterRoles keeps the roles where every word of the query is the prefix
// of a word of the name or description, case-insensitively.
func filterRoles(roles []domain.Role, query string) []domain.Role {
	terms := searchWords(query)
	if len(terms) == 0 {
		return roles
	}
	var out []domain.Role
	for _, r := range roles {
		if matchesWordPrefixes(terms, r.Name, r.Description) {
			out = append(out, r)
		}
	}
	return out
}

// RoleSorts are the sort keys of R1 besides the default "name".
// userRoleCount (the reference client's) is answered for up to the store's
// bound of roles (the scope, or the roles a query names).
var RoleSorts = []string{"id", "description", "createdAt", domain.RoleSortUserRoleCount}

// sortRoles orders as the store's listings do (domain.RoleSortKey), or by
// member count then id.
func sortRoles(roles []domain.Role, by string, descending bool) {
	slices.SortStableFunc(roles, func(a, b domain.Role) int {
		var c int
		if by == domain.RoleSortUserRoleCount {
			c = cmp.Or(cmp.Compare(a.UserRoleCount, b.UserRoleCount), cmp.Compare(a.ID, b.ID))
		} else {
			c = strings.Compare(domain.RoleSortKey(a, by), domain.RoleSortKey(b, by))
		}
		if descending {
			return -c
		}
		return c
	})
}

// RolesOfApplication is R5: the roles of an application that the caller
// may see (super users all; institution admins and organization tokens
// those of their organization; others those they hold at least INVITER
// on). Callers who see no roles at all are refused.
func (s *Service) RolesOfApplication(ctx context.Context, p *auth.Principal, manageID string) ([]domain.Role, error) {
	if p == nil {
		return nil, domain.Unauthenticatedf("authentication required")
	}
	if auth.RoleListScopeOf(p) == auth.RolesNone {
		return nil, domain.Forbiddenf("no access to the roles of application %q", manageID)
	}
	roles, err := s.Store.ListRolesByManageID(ctx, manageID)
	if err != nil {
		return nil, err
	}
	visible := slices.DeleteFunc(roles, func(r domain.Role) bool { return !auth.CanSeeRole(p, r) })
	return visible, s.countMembers(ctx, visible)
}

// RolesOfOrganizationApplication is R7: the roles of an organization that
// use an application. Super users ask for any organization; institution
// admins and organization tokens only for their own (another one has no
// roles for them).
func (s *Service) RolesOfOrganizationApplication(ctx context.Context, p *auth.Principal, organizationGUID, manageID string) ([]domain.Role, error) {
	if p == nil {
		return nil, domain.Unauthenticatedf("authentication required")
	}
	scope := auth.RoleListScopeOf(p)
	switch {
	case scope == auth.RolesOfOrganization && p.OrganizationGUID != organizationGUID:
		// Another organization answers as one without roles.
		return []domain.Role{}, nil
	case scope != auth.RolesAll && scope != auth.RolesOfOrganization:
		return nil, domain.Forbiddenf("no access to the roles of organization %q", organizationGUID)
	}
	roles, err := s.Store.ListRolesByManageID(ctx, manageID)
	if err != nil {
		return nil, err
	}
	roles = slices.DeleteFunc(roles, func(r domain.Role) bool { return r.OrganizationGUID != organizationGUID })
	return roles, s.countMembers(ctx, roles)
}
