package service

import (
	"context"
	"time"

	"github.com/edu-invite/invite/shared/auth"
	"github.com/edu-invite/invite/shared/domain"
)

// UpdateEndDate changes when a membership ends (U7), audited. A new end
// date starts the reminders afresh. Whoever could grant the membership's
// authority on the role may change it; a member may shorten their own
// membership, never lengthen it. A membership of another organization
// answers as one that does not exist.
func (s *Service) UpdateEndDate(ctx context.Context, p *auth.Principal, userRoleID int64, endDate *time.Time) (domain.UserRole, error) {
	if p == nil {
		return domain.UserRole{}, domain.Unauthenticatedf("authentication required")
	}
	if err := domain.CheckDate("endDate", endDate); err != nil {
		return domain.UserRole{}, err
	}
	if endDate != nil && !endDate.After(s.now()) {
		return domain.UserRole{}, domain.Conflictf("endDate must be in the future") // 409, as in the reference
	}
	ur, err := s.Store.GetUserRoleByID(ctx, userRoleID)
	if err != nil {
		return domain.UserRole{}, err
	}
	role, err := s.Store.GetRole(ctx, ur.RoleID)
	if err != nil {
		return domain.UserRole{}, err
	}
	if !MayChangeEndDate(p, role, ur) {
		return domain.UserRole{}, s.refuseUserRole(ctx, p, role, userRoleID, domain.Forbiddenf("not allowed to change membership %d", userRoleID))
	}
	if auth.ExtendsOwnMembership(p, ur, endDate) {
		return domain.UserRole{}, domain.Forbiddenf("nobody extends their own membership: ask who granted it")
	}
	user, err := s.Store.GetUser(ctx, ur.UserID)
	if err != nil {
		return domain.UserRole{}, err
	}
	ur.EndDate = endDate
	ur.ExpiryNotifications = 0
	audit := []domain.AuditEntry{s.auditEntry(ctx, p, ur, role, user.Email, domain.AuditUpdate)}
	if err := s.assignAuditIDs(ctx, audit); err != nil {
		return domain.UserRole{}, err
	}
	if err := s.Store.UpdateUserRole(ctx, ur, audit, nil); err != nil {
		return domain.UserRole{}, err
	}
	ur.Version++
	return ur, nil
}
