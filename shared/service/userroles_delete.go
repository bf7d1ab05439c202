package service

import (
	"context"

	"github.com/edu-invite/invite/shared/auth"
	"github.com/edu-invite/invite/shared/domain"
)

// RemovalOutcome says what RemoveUserRole did.
type RemovalOutcome struct {
	// Partial is set when only one part of a membership that includes the
	// guest role was taken away and the membership stays.
	Partial bool
	// UserDeleted is set when the membership was the user's last one.
	UserDeleted bool
}

// RemoveUserRole takes a membership away (DELETE /user_roles/{id}/{isGuest}).
//
// A membership of a higher authority that includes the guest role has two
// parts, as in the reference: guestPart true takes the guest part away (the
// authority stays, guestRoleIncluded is cleared, and the member leaves the
// role's group at every SP: only guests are provisioned), false the other
// part (the member stays a guest and in the groups). Either is an audited
// UPDATE. Any other membership goes
// whole, whatever guestPart says: audited (DELETE), removed from the group
// at each SP of the role; when it was the user's last membership the user
// is deleted at every SP where they exist and in the service (super users
// and institution admins keep their record: their rights are not
// memberships). Members may remove their own memberships; others need the
// right to grant the authority that is taken away.
func (s *Service) RemoveUserRole(ctx context.Context, p *auth.Principal, userRoleID int64, guestPart bool) (RemovalOutcome, error) {
	if p == nil {
		return RemovalOutcome{}, domain.Unauthenticatedf("authentication required")
	}
	ur, err := s.Store.GetUserRoleByID(ctx, userRoleID)
	if err != nil {
		return RemovalOutcome{}, err
	}
	role, err := s.Store.GetRole(ctx, ur.RoleID)
	if err != nil {
		return RemovalOutcome{}, err
	}
	partial := ur.GuestRoleIncluded && ur.Authority != domain.Guest
	removed := ur.Authority
	if partial && guestPart {
		removed = domain.Guest
	}
	if !p.CanRemoveMembership(role, ur, removed) {
		return RemovalOutcome{}, s.refuseUserRole(ctx, p, role, userRoleID, domain.Forbiddenf("not allowed to remove membership %d", userRoleID))
	}
	user, err := s.Store.GetUser(ctx, ur.UserID)
	if err != nil {
		return RemovalOutcome{}, err
	}
	if partial {
		ur.GuestRoleIncluded = false
		if !guestPart {
			ur.Authority = domain.Guest
		}
		audit := []domain.AuditEntry{s.auditEntry(ctx, p, ur, role, user.Email, domain.AuditUpdate)}
		if err := s.assignAuditIDs(ctx, audit); err != nil {
			return RemovalOutcome{}, err
		}
		// Without its guest part the membership no longer reaches the
		// role's applications: the member leaves the groups there.
		var deliveries []domain.Delivery
		if !ur.Provisioned() {
			for _, sp := range s.Registry.SPsOfRole(role) {
				deliveries = append(deliveries, s.newDelivery(ctx, sp, domain.DeliverMemberRemove, user.ID, role.ID))
			}
		}
		if err := s.Store.UpdateUserRole(ctx, ur, audit, deliveries); err != nil {
			return RemovalOutcome{}, err
		}
		s.dispatch(ctx, deliveries)
		return RemovalOutcome{Partial: true}, nil
	}

	memberships, err := s.Store.ListUserRolesOfUser(ctx, ur.UserID)
	if err != nil {
		return RemovalOutcome{}, err
	}
	last := len(memberships) == 0 || (len(memberships) == 1 && memberships[0].RoleID == ur.RoleID)
	deleteUser := last && keepsNoRecord(user)
	if _, err := s.removeMemberships(ctx, membershipRemoval{by: p, user: user, memberships: []domain.UserRole{ur},
		roles: map[int64]domain.Role{role.ID: role}, leaveSPs: last, deleteUser: deleteUser}); err != nil {
		return RemovalOutcome{}, err
	}
	return RemovalOutcome{UserDeleted: deleteUser}, nil
}
