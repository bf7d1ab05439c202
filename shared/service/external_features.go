package service

import (
	"context"
	"strings"

	"github.com/edu-invite/invite/shared/auth"
	"github.com/edu-invite/invite/shared/domain"
)

// Features that applications and SURF's platform call with machine
// credentials (issue 18): VOOT group memberships, attribute aggregation and
// the user lifecycle (GDPR export and erasure). Callers are Basic machine
// callers whose scope admits the path (auth.MachineCallers) and super users.

func requirePlatformCaller(p *auth.Principal) error {
	switch {
	case p == nil:
		return domain.Unauthenticatedf("authentication required")
	case p.SuperUser || p.Kind == auth.KindMachine:
		return nil
	}
	return domain.Forbiddenf("only platform machine callers and super users call this operation")
}

// UserMembership is one role a person holds, for VOOT and attribute
// aggregation.
type UserMembership struct {
	UserRole domain.UserRole
	Role     domain.Role
}

// MembershipsOfSubject returns the current memberships of the person with
// the subject, none for an unknown one (as the reference answers).
func (s *Service) MembershipsOfSubject(ctx context.Context, p *auth.Principal, sub string) ([]UserMembership, error) {
	if err := requirePlatformCaller(p); err != nil {
		return nil, err
	}
	if strings.TrimSpace(sub) == "" {
		return nil, domain.Invalidf("the person's subject is required")
	}
	user, err := s.Store.GetUserBySub(ctx, sub)
	if domain.IsNotFound(err) {
		return []UserMembership{}, nil
	}
	if err != nil {
		return nil, err
	}
	urs, err := s.Store.ListUserRolesOfUser(ctx, user.ID)
	if err != nil {
		return nil, err
	}
	roles, err := s.rolesOf(ctx, urs)
	if err != nil {
		return nil, err
	}
	now := s.now()
	out := []UserMembership{}
	for _, ur := range urs {
		role, ok := roles[ur.RoleID]
		if !ok || ur.Expired(now) || !inBoundOrganization(p, role) {
			continue
		}
		out = append(out, UserMembership{UserRole: ur, Role: role})
	}
	return out, nil
}

// LifecycleReport is what the service holds about a person (the user
// lifecycle API's GET) or removed (DELETE).
type LifecycleReport struct {
	User        domain.User
	Memberships []UserMembership
	Found       bool
}

// DeprovisionUser reports what the service holds about the person with
// the subject and, unless only reporting or on a dry run, deletes the
// person: every membership (audited, each group left at every SP) and the
// user in the service and at every SP where it exists.
func (s *Service) DeprovisionUser(ctx context.Context, p *auth.Principal, sub string, erase, dryRun bool) (LifecycleReport, error) {
	if err := requirePlatformCaller(p); err != nil {
		return LifecycleReport{}, err
	}
	user, err := s.Store.GetUserBySub(ctx, strings.TrimSpace(sub))
	if domain.IsNotFound(err) {
		return LifecycleReport{}, nil
	}
	if err != nil {
		return LifecycleReport{}, err
	}
	urs, err := s.Store.ListUserRolesOfUser(ctx, user.ID)
	if err != nil {
		return LifecycleReport{}, err
	}
	roles, err := s.rolesOf(ctx, urs)
	if err != nil {
		return LifecycleReport{}, err
	}
	// An organization's machine caller reports and erases only what the
	// person holds in that organization; a person it has nothing of is
	// unknown to it. The person is deleted only with their last membership,
	// when nothing of them belongs to another organization.
	report := LifecycleReport{User: user, Found: true}
	var ours []domain.UserRole
	for _, ur := range urs {
		if role, ok := roles[ur.RoleID]; ok && !inBoundOrganization(p, role) {
			continue
		}
		ours = append(ours, ur)
		report.Memberships = append(report.Memberships, UserMembership{UserRole: ur, Role: roles[ur.RoleID]})
	}
	bound := p.BoundOrganization()
	if bound != "" && len(ours) == 0 && user.OrganizationGUID != bound {
		return LifecycleReport{}, nil
	}
	whole := bound == "" || (len(ours) == len(urs) && !user.SuperUser && (user.OrganizationGUID == "" || user.OrganizationGUID == bound))
	if !erase || dryRun {
		return report, nil
	}
	_, err = s.removeMemberships(ctx, membershipRemoval{by: p, user: user, memberships: ours, roles: roles, deleteUser: whole})
	return report, err
}

// inBoundOrganization reports whether a role lies in the organization an
// organization-bound caller acts for (always for other callers).
func inBoundOrganization(p *auth.Principal, role domain.Role) bool {
	org := p.BoundOrganization()
	return org == "" || role.OrganizationGUID == org
}

// GuestRolesOfSubject returns the roles the person with the subject is a
// guest of (GUEST memberships and those that include the guest role), for
// the user profile; none for an unknown person.
func (s *Service) GuestRolesOfSubject(ctx context.Context, p *auth.Principal, sub string) ([]domain.Role, error) {
	ms, err := s.MembershipsOfSubject(ctx, p, sub)
	if err != nil {
		return nil, err
	}
	roles := []domain.Role{}
	for _, m := range ms {
		if m.UserRole.Authority == domain.Guest || m.UserRole.GuestRoleIncluded {
			roles = append(roles, m.Role)
		}
	}
	return roles, nil
}

// RolesSummary lists every role that is not a CRM role (name, description
// and URN), for the internal invite API's machine callers and super users,
// as the reference's roles-summary; an organization's machine caller gets
// its organization's roles only.
func (s *Service) RolesSummary(ctx context.Context, p *auth.Principal) ([]domain.Role, error) {
	if err := requirePlatformCaller(p); err != nil {
		return nil, err
	}
	all, err := s.Store.ListAllRoles(ctx)
	if err != nil {
		return nil, err
	}
	roles := []domain.Role{}
	for _, r := range all {
		if r.CRMRoleID == "" && inBoundOrganization(p, r) {
			roles = append(roles, r)
		}
	}
	return roles, nil
}
