package domain

import "time"

// UserRole is a membership: a user holds a role with an authority until the
// end date (spec 2.6).
type UserRole struct {
	ID                  int64
	UserID              int64
	RoleID              int64
	Inviter             string
	EndDate             *time.Time
	CreatedAt           time.Time
	ExpiryNotifications int
	GuestRoleIncluded   bool
	Authority           Authority
	Version             int64
}
