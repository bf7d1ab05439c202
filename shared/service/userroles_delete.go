package service

import (
	"context"
	"errors"
	"slices"

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

	for attempt := 0; ; attempt++ {
		outcome, err := s.removeWholeMembership(ctx, p, user, ur, role)
		if !errors.Is(err, domain.ErrVersionConflict) || attempt == len(conflictRetries) {
			return outcome, err
		}
		// The user changed (a sign-in, another removal, an acceptance) since
		// it was read: whether this is the last membership is decided again.
		if err := sleepCtx(ctx, conflictRetries[attempt]); err != nil {
			return RemovalOutcome{}, err
		}
		if user, err = s.Store.GetUser(ctx, ur.UserID); err != nil {
			return RemovalOutcome{}, err
		}
	}
}

// removeWholeMembership removes ur of user, read before its memberships
// are listed here: when it keeps the user, the removal holds only while the
// user is still at that version (see domain.Removal's KeepUser).
func (s *Service) removeWholeMembership(ctx context.Context, p *auth.Principal, user domain.User, ur domain.UserRole, role domain.Role) (RemovalOutcome, error) {
	memberships, err := s.Store.ListUserRolesOfUser(ctx, ur.UserID)
	if err != nil {
		return RemovalOutcome{}, err
	}
	i := slices.IndexFunc(memberships, func(m domain.UserRole) bool { return m.ID == ur.ID })
	if i < 0 {
		return RemovalOutcome{}, domain.NotFoundf("membership %d not found", ur.ID)
	}
	ur = memberships[i]
	last := len(memberships) == 1
	deleteUser := last && keepsNoRecord(user)
	if _, err := s.removeMemberships(ctx, membershipRemoval{by: p, user: user, memberships: []domain.UserRole{ur},
		roles: map[int64]domain.Role{role.ID: role}, leaveSPs: last, deleteUser: deleteUser, keptForOthers: !last}); err != nil {
		return RemovalOutcome{}, err
	}
	return RemovalOutcome{UserDeleted: deleteUser}, nil
}
