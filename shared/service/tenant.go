package service

import (
	"context"

	"github.com/edu-invite/invite/shared/auth"
	"github.com/edu-invite/invite/shared/domain"
)

// The organization is the boundary: an object of an organization the caller
// does not belong to answers exactly as one that does not exist (the same
// status and message), so that a caller learns nothing about other
// institutions, not even which ids are in use.

// roleOutsideTenant reports whether a role lies outside every organization
// the caller belongs to: not a super user, no membership of the role, and
// neither the caller's own organization (institution admins, programs) nor
// that of a role the caller holds.
func (s *Service) roleOutsideTenant(ctx context.Context, p *auth.Principal, role domain.Role) (bool, error) {
	switch {
	case p == nil:
		return true, nil
	case p.SuperUser, p.Memberships[role.ID] != "":
		return false, nil
	}
	in, err := s.callerIsInOrganization(ctx, p, role.OrganizationGUID)
	return !in, err
}

// userOutsideTenant reports whether a user lies outside every organization
// the caller belongs to: not the caller, of no organization of the
// caller's, and holding no role of one. roles are the roles the user holds.
func (s *Service) userOutsideTenant(ctx context.Context, p *auth.Principal, u domain.User, roles []domain.Role) (bool, error) {
	switch {
	case p == nil:
		return true, nil
	case p.SuperUser, p.User != nil && p.User.ID == u.ID:
		return false, nil
	}
	orgs := []string{}
	if u.OrganizationGUID != "" {
		orgs = append(orgs, u.OrganizationGUID)
	}
	for _, r := range roles {
		if p.Memberships[r.ID] != "" {
			return false, nil
		}
		orgs = append(orgs, r.OrganizationGUID)
	}
	for _, org := range orgs {
		if in, err := s.callerIsInOrganization(ctx, p, org); err != nil || in {
			return false, err
		}
	}
	return true, nil
}

// refuseUser is the refusal of an operation on a user: refusal itself
// within the caller's organization, the store's "not found" outside it.
func (s *Service) refuseUser(ctx context.Context, p *auth.Principal, u domain.User, roles []domain.Role, refusal error) error {
	outside, err := s.userOutsideTenant(ctx, p, u, roles)
	if err != nil {
		return err
	}
	if outside {
		return userNotFound(u.ID)
	}
	return refusal
}

// refuseRole is the refusal of an operation on a role: refusal itself
// within the caller's organization, the store's "not found" outside it.
func (s *Service) refuseRole(ctx context.Context, p *auth.Principal, role domain.Role, refusal error) error {
	outside, err := s.roleOutsideTenant(ctx, p, role)
	if err != nil {
		return err
	}
	if outside {
		return roleNotFound(role.ID)
	}
	return refusal
}

// refuseInvitation is the refusal of an operation on an invitation: "not
// found" when the invitation's roles (or, without roles, its organization)
// lie outside every organization of the caller.
func (s *Service) refuseInvitation(ctx context.Context, p *auth.Principal, inv domain.Invitation, roles []domain.Role) error {
	refusal := domain.Forbiddenf("no access to invitation %d", inv.ID)
	if p.SuperUser {
		return refusal
	}
	if len(roles) == 0 {
		in, err := s.callerIsInOrganization(ctx, p, inv.OrganizationGUID)
		switch {
		case err != nil:
			return err
		case in:
			return refusal
		}
		return invitationNotFound(inv.ID)
	}
	for _, r := range roles {
		outside, err := s.roleOutsideTenant(ctx, p, r)
		switch {
		case err != nil:
			return err
		case !outside:
			return refusal
		}
	}
	return invitationNotFound(inv.ID)
}

// refuseUserRole is the refusal of an operation on a membership: refusal
// itself within the caller's organization, the store's "not found" for a
// membership of another organization's role.
func (s *Service) refuseUserRole(ctx context.Context, p *auth.Principal, role domain.Role, userRoleID int64, refusal error) error {
	outside, err := s.roleOutsideTenant(ctx, p, role)
	if err != nil {
		return err
	}
	if outside {
		return domain.NotFoundf("user role %d not found", userRoleID)
	}
	return refusal
}

// roleIDsOf are the roles of memberships.
func roleIDsOf(urs []domain.UserRole) []int64 {
	ids := make([]int64, 0, len(urs))
	for _, ur := range urs {
		ids = append(ids, ur.RoleID)
	}
	return ids
}

// roleNotFound is what the store answers for a role id it does not hold.
func roleNotFound(id int64) error { return domain.NotFoundf("role %d not found", id) }

// userNotFound is what the store answers for a user id it does not hold.
func userNotFound(id int64) error { return domain.NotFoundf("user %d not found", id) }

// invitationNotFound is what the store answers for an invitation id it
// does not hold.
func invitationNotFound(id int64) error { return domain.NotFoundf("invitation %d not found", id) }
