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
// page. With force (the reference's default) every role of the scope is in
// one page, as the reference's clients expect; without it the page request
// applies: query matches word prefixes of name and description,
// case-insensitively, sorted by name (or id, description) in either
// direction. Roles are few (hundreds): the scope is read whole (one or two
// Query pages, independent of the number of users), and only the roles on
// the page get their memberships counted (one COUNT query each).
func (s *Service) ListRoles(ctx context.Context, p *auth.Principal, req domain.PageRequest, force bool) (domain.Page[domain.Role], domain.PageRequest, error) {
	if p == nil {
		return domain.Page[domain.Role]{}, req, domain.Unauthenticatedf("authentication required")
	}
	roles, err := s.rolesInScope(ctx, p)
	if err != nil {
		return domain.Page[domain.Role]{}, req, err
	}
	if force {
		req = domain.PageRequest{Size: max(len(roles), 1), Sort: "name"}
	} else {
		roles = filterRoles(roles, req.Query)
		if req.Sort == "userRoleCount" {
			if err := s.countMembers(ctx, roles); err != nil {
				return domain.Page[domain.Role]{}, req, err
			}
		}
		sortRoles(roles, req.Sort, req.Descending)
	}
	total := int64(len(roles))
	from := min(req.Offset(), len(roles))
	page := slices.Clone(roles[from:min(from+req.Size, len(roles))])
	if err := s.countMembers(ctx, page); err != nil {
		return domain.Page[domain.Role]{}, req, err
	}
	return domain.Page[domain.Role]{Items: page, Total: total}, req, nil
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
// userRoleCount (the reference client's) counts the members of every role in
// scope, one COUNT query each.
var RoleSorts = []string{"id", "description", "createdAt", "userRoleCount"}

func sortRoles(roles []domain.Role, by string, descending bool) {
	slices.SortStableFunc(roles, func(a, b domain.Role) int {
		var c int
		switch by {
		case "id":
			c = cmp.Compare(a.ID, b.ID)
		case "description":
			c = cmp.Compare(strings.ToLower(a.Description), strings.ToLower(b.Description))
		case "createdAt":
			c = a.Auditable.CreatedAt.Compare(b.Auditable.CreatedAt)
		case "userRoleCount":
			c = cmp.Compare(a.UserRoleCount, b.UserRoleCount)
		default:
			c = cmp.Compare(domain.NormalizedRoleName(a.Name), domain.NormalizedRoleName(b.Name))
		}
		c = cmp.Or(c, cmp.Compare(a.ID, b.ID))
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
