package service

import (
	"context"
	"net/mail"
	"net/url"
	"strings"

	"github.com/edu-invite/invite/shared/auth"
	"github.com/edu-invite/invite/shared/domain"
)

// Routes of OpenConext-Invite's console that its users depend on (issue 18).

// RoleManagerEmails returns the e-mail addresses of a role's managers
// (MANAGER or INSTITUTION_ADMIN memberships), to those who may see its
// members, as the console shows whom to ask. Only those memberships are
// read (never the role's guests), so a role of any size answers.
func (s *Service) RoleManagerEmails(ctx context.Context, p *auth.Principal, roleID int64) ([]string, error) {
	if p == nil {
		return nil, domain.Unauthenticatedf("authentication required")
	}
	role, err := s.Store.GetRole(ctx, roleID)
	if err != nil {
		return nil, err
	}
	if !p.CanSeeMembers(role) {
		return nil, s.refuseRole(ctx, p, role, domain.Forbiddenf("no access to the members of role %d", roleID))
	}
	managers, err := s.Store.MembersOfRoleWithAuthority(ctx, roleID, domain.Manager, domain.InstitutionAdmin)
	if err != nil {
		return nil, err
	}
	emails := []string{}
	for _, m := range managers {
		emails = append(emails, m.User.Email)
	}
	return emails, nil
}

// RoleDeletionConsequences lists who loses what when a role is deleted,
// to those who administer the role's organization (super users, its
// institution admins and API tokens). Unpaged (paged false), a role of at
// most MembersListedBound members answers every membership with its user,
// as the reference does; a larger one, or a caller asking for a page,
// answers the page req of them by name with the role's member count (page
// not nil), at a page's cost whatever the role's size: a role is never
// refused for its size, and no answer outgrows a Lambda response.
func (s *Service) RoleDeletionConsequences(ctx context.Context, p *auth.Principal, roleID int64, req domain.PageRequest, paged bool) ([]domain.Member, *domain.Page[domain.Member], error) {
	if p == nil {
		return nil, nil, domain.Unauthenticatedf("authentication required")
	}
	role, err := s.Store.GetRole(ctx, roleID)
	if err != nil {
		return nil, nil, err
	}
	if !p.CanCreateRoleIn(role.OrganizationGUID) {
		return nil, nil, s.refuseRole(ctx, p, role, domain.Forbiddenf("only the role's institution admins and super users see the consequences of deleting role %d", roleID))
	}
	if !paged {
		bound := s.membersListedBound()
		counts, err := s.Store.CountMembersOfRoles(ctx, []int64{roleID})
		if err != nil {
			return nil, nil, err
		}
		if counts[roleID] <= int64(bound) {
			members, more, err := s.Store.ListMembersOfRole(ctx, roleID, bound)
			if err != nil {
				return nil, nil, err
			}
			if !more {
				return members, nil, nil
			}
			// The counter lagged members added a moment ago: a page.
		}
	}
	_, page, err := s.Store.AllMembersPageOfRole(ctx, roleID, req.Descending, req.Offset(), req.Size)
	if err != nil {
		return nil, nil, err
	}
	return nil, &page, nil
}

// InstitutionAdmins lists the institution admins of an organization: the
// caller's own, or for a super user the one named.
func (s *Service) InstitutionAdmins(ctx context.Context, p *auth.Principal, organizationGUID string) ([]domain.User, error) {
	if p == nil {
		return nil, domain.Unauthenticatedf("authentication required")
	}
	org := strings.TrimSpace(organizationGUID)
	if !p.SuperUser {
		org = p.OrganizationGUID
	}
	if org == "" && p.SuperUser {
		return nil, domain.Invalidf("organizationGUID is required for super users")
	}
	if !p.CanCreateRoleIn(org) {
		return nil, domain.Forbiddenf("only institution admins and super users list institution admins")
	}
	return s.Store.ListInstitutionAdmins(ctx, org)
}

// RemoveInstitutionAdmin takes institution admin rights away from a user
// who got them by invitation, as the reference allows: institution admins
// of the same organization and super users may; rights given otherwise stay.
func (s *Service) RemoveInstitutionAdmin(ctx context.Context, p *auth.Principal, userID int64) error {
	if p == nil {
		return domain.Unauthenticatedf("authentication required")
	}
	if !p.SuperUser && !(p.Kind == auth.KindPerson && p.User != nil && p.User.InstitutionAdmin && p.OrganizationGUID != "") {
		return domain.Forbiddenf("only institution admins and super users remove institution admins")
	}
	u, err := s.Store.GetUser(ctx, userID)
	if err != nil {
		return err
	}
	if !p.SuperUser && u.OrganizationGUID != p.OrganizationGUID {
		return s.refuseUser(ctx, p, u, nil, domain.Forbiddenf("user %d is institution admin of another organization", userID))
	}
	if !u.InstitutionAdminByInvite {
		return domain.Forbiddenf("user %d did not become institution admin by invitation", userID)
	}
	u.InstitutionAdmin, u.InstitutionAdminByInvite, u.OrganizationGUID = false, false, ""
	return s.Store.UpdateUser(ctx, u, nil)
}

// Validate checks a value of a format the console asks about: "email" (a
// bare address) or "url" (absolute http or https).
func Validate(format, value string) (bool, error) {
	switch format {
	case "email":
		addr, err := mail.ParseAddress(value)
		return err == nil && addr.Name == "" && addr.Address == value, nil
	case "url":
		u, err := url.Parse(value)
		return err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host != "", nil
	}
	return false, domain.Invalidf("no validation defined for %q", format)
}

// AuditRoles lists the roles the caller may filter the audit search by:
// every role for super users, the organization's for its institution
// admins and API tokens, by name.
func (s *Service) AuditRoles(ctx context.Context, p *auth.Principal) ([]domain.Role, error) {
	if p == nil {
		return nil, domain.Unauthenticatedf("authentication required")
	}
	var roles []domain.Role
	var err error
	switch {
	case p.SuperUser:
		roles, err = s.Store.ListAllRoles(ctx)
	case p.OrganizationGUID != "" && p.CanCreateRoleIn(p.OrganizationGUID):
		roles, err = s.Store.ListRolesByOrganization(ctx, p.OrganizationGUID)
	default:
		return nil, domain.Forbiddenf("only institution admins and super users search the audit trail")
	}
	if err != nil {
		return nil, err
	}
	sortRoles(roles, "name", false)
	return roles, nil
}
