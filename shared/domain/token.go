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
}
