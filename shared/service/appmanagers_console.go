package service

import (
	"context"
	"sort"
	"strings"

	"github.com/edu-invite/invite/shared/auth"
	"github.com/edu-invite/invite/shared/domain"
)

// ApplicationManagerOf is one APPLICATION_MANAGER membership of an
// organization's role: who, in which role.
type ApplicationManagerOf struct {
	Member domain.Member
	Role   domain.Role
}

// OrganizationApplicationManagers lists the application managers of an
// organization (its roles' memberships with APPLICATION_MANAGER), by name:
// the caller's own organization for its institution admins, the one named
// for super users (as InstitutionAdmins). One Query for the roles and one
// members read per role: an organization's roles, not its users, bound it.
// Appointing one is an invitation to a role with that authority; removing
// one ends the membership (RemoveUserRole), each authorized as always.
func (s *Service) OrganizationApplicationManagers(ctx context.Context, p *auth.Principal, organizationGUID string) ([]ApplicationManagerOf, error) {
	if p == nil {
		return nil, domain.Unauthenticatedf("authentication required")
	}
	org := strings.TrimSpace(organizationGUID)
	if !p.SuperUser {
		org = p.OrganizationGUID
	}
	if org == "" {
		return nil, domain.Invalidf("an organization is required")
	}
	if !p.CanCreateRoleIn(org) {
		return nil, domain.Forbiddenf("only institution admins and super users list application managers")
	}
	out, err := s.applicationManagerMemberships(ctx, org)
	if err != nil {
		return nil, err
	}
	sort.SliceStable(out, func(i, j int) bool {
		return strings.ToLower(out[i].Member.User.DisplayName()) < strings.ToLower(out[j].Member.User.DisplayName())
	})
	return out, nil
}

// applicationManagerMemberships reads the APPLICATION_MANAGER memberships
// of an organization's roles, in role order: one Query for the roles and
// one read per role of its APPLICATION_MANAGER memberships alone (never
// its guests), so a role of any size answers. The console lists them per
// membership, the API per person.
func (s *Service) applicationManagerMemberships(ctx context.Context, org string) ([]ApplicationManagerOf, error) {
	roles, err := s.Store.ListRolesByOrganization(ctx, org)
	if err != nil {
		return nil, err
	}
	var out []ApplicationManagerOf
	for _, r := range roles {
		members, err := s.Store.MembersOfRoleWithAuthority(ctx, r.ID, domain.ApplicationManager)
		if err != nil {
			return nil, err
		}
		for _, m := range members {
			out = append(out, ApplicationManagerOf{Member: m, Role: r})
		}
	}
	return out, nil
}

// MayAdministerOrganization reports whether the caller has the console's
// page of an organization's administrators: institution admins (people)
// for their own organization, super users for any.
func MayAdministerOrganization(p *auth.Principal) bool {
	return p != nil && (p.SuperUser || (p.Kind == auth.KindPerson && p.User != nil && p.User.InstitutionAdmin &&
		p.OrganizationGUID != "" && p.CanCreateRoleIn(p.OrganizationGUID)))
}
