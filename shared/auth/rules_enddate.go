package auth

import (
	"time"

	"github.com/edu-invite/invite/shared/domain"
)

// CanChangeEndDate reports whether the caller may change when a membership
// ends: only whoever could grant its authority on the role (CanInvite), so
// that a MANAGER cannot end an APPLICATION_MANAGER's membership by a date
// when removing it directly is refused, and an inviter changes only the
// guests' dates.
func (p *Principal) CanChangeEndDate(r domain.Role, ur domain.UserRole) bool {
	return p.CanInvite(r, ur.Authority)
}

// ExtendsOwnMembership reports whether a new end date would lengthen the
// caller's own membership: later than its current end, or no end where it
// had one. Nobody extends what they were granted, whatever their authority;
// shortening one's own membership is allowed.
func ExtendsOwnMembership(p *Principal, ur domain.UserRole, end *time.Time) bool {
	if p == nil || p.User == nil || p.User.ID != ur.UserID {
		return false
	}
	switch {
	case ur.EndDate == nil:
		return false
	case end == nil:
		return true
	}
	return end.After(*ur.EndDate)
}
