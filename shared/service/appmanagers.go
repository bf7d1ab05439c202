package service

import (
	"context"
	"slices"
	"strings"

	"github.com/edu-invite/invite/shared/auth"
	"github.com/edu-invite/invite/shared/domain"
)

// ApplicationManager is one application manager of an organization with
// the names of the organization's roles they manage applications through.
type ApplicationManager struct {
	User  domain.User
	Roles []string // sorted by name
}

// ListApplicationManagers lists the application managers of an
// organization (APPLICATION_MANAGER memberships of its roles): the caller's
// own, or for a super user the one named. The reference keeps application
// managers per application; here they are memberships, so the list is read
// role by role (its APPLICATION_MANAGER memberships alone, any role size).
func (s *Service) ListApplicationManagers(ctx context.Context, p *auth.Principal, organizationGUID string) ([]ApplicationManager, error) {
	org, err := s.organizationAdministered(p, organizationGUID)
	if err != nil {
		return nil, err
	}
	memberships, err := s.applicationManagerMemberships(ctx, org)
	if err != nil {
		return nil, err
	}
	byUser := map[int64]*ApplicationManager{}
	for _, am := range memberships {
		m := byUser[am.Member.User.ID]
		if m == nil {
			m = &ApplicationManager{User: am.Member.User}
			byUser[am.Member.User.ID] = m
		}
		m.Roles = append(m.Roles, am.Role.Name)
	}
	out := make([]ApplicationManager, 0, len(byUser))
	for _, am := range byUser {
		slices.Sort(am.Roles)
		out = append(out, *am)
	}
	slices.SortFunc(out, func(a, b ApplicationManager) int {
		if c := strings.Compare(strings.ToLower(a.User.Name), strings.ToLower(b.User.Name)); c != 0 {
			return c
		}
		return int(a.User.ID - b.User.ID)
	})
	return out, nil
}

// RemoveApplicationManager takes a user's application manager rights in
// the caller's organization away (a super user: in every organization):
// each APPLICATION_MANAGER membership of its roles goes, as the removal of
// that membership would, except that one which includes the guest role
// stays as a guest membership. Institution admins and super users may.
// It answers how many memberships changed; a user without such rights
// there is 404.
func (s *Service) RemoveApplicationManager(ctx context.Context, p *auth.Principal, userID int64) (int, error) {
	if _, err := s.organizationAdministered(p, "-"); err != nil {
		return 0, err
	}
	user, err := s.Store.GetUser(ctx, userID)
	if err != nil {
		return 0, err
	}
	urs, err := s.Store.ListUserRolesOfUser(ctx, userID)
	if err != nil {
		return 0, err
	}
	roles, err := s.Store.GetRoles(ctx, roleIDsOf(urs))
	if err != nil {
		return 0, err
	}
	// Another organization's user answers as a missing one.
	if outside, err := s.userOutsideTenant(ctx, p, user, roles); err != nil {
		return 0, err
	} else if outside {
		return 0, userNotFound(userID)
	}
	changed := 0
	for _, ur := range urs {
		if ur.Authority != domain.ApplicationManager {
			continue
		}
		role, err := s.Store.GetRole(ctx, ur.RoleID)
		if err != nil {
			return changed, err
		}
		if !p.SuperUser && role.OrganizationGUID != p.OrganizationGUID {
			continue
		}
		// guestPart false: a membership with the guest role included
		// keeps it (the member stays a guest); another goes whole.
		if _, err := s.RemoveUserRole(ctx, p, ur.ID, false); err != nil {
			return changed, err
		}
		changed++
	}
	if changed == 0 {
		return 0, domain.NotFoundf("user %d manages no application of the organization", userID)
	}
	return changed, nil
}

// organizationAdministered is the organization whose administration lists
// a caller asks for: an institution admin's (or organization token's) own,
// the one a super user names. A super user naming none is refused, unless
// named is "-" (the caller acts on every organization).
func (s *Service) organizationAdministered(p *auth.Principal, named string) (string, error) {
	if p == nil {
		return "", domain.Unauthenticatedf("authentication required")
	}
	org := strings.TrimSpace(named)
	if !p.SuperUser {
		org = p.OrganizationGUID
	}
	if org == "" && p.SuperUser {
		return "", domain.Invalidf("organizationGUID is required for super users")
	}
	if org == "" || !p.CanCreateRoleIn(org) {
		return "", domain.Forbiddenf("only institution admins and super users manage application managers")
	}
	return org, nil
}
