package domain

import "time"

// APIToken lets a machine act within an organization, or as super user
// (spec 2.10). Only the SHA-256 of the token is stored.
type APIToken struct {
	ID               int64
	OrganizationGUID string
	HashedValue      string
	SuperUserToken   bool
	Description      string
	CreatedAt        time.Time
	Owner            string
	// ExpiresAt, when set, ends the token: authentication refuses it from
	// then on and the cleanup job deletes it (not in the spec).
	ExpiresAt *time.Time
}

// ExpiredAt reports whether the token has expired at now.
func (t APIToken) ExpiredAt(now time.Time) bool {
	return t.ExpiresAt != nil && !now.Before(*t.ExpiresAt)
}
