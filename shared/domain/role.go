package domain

import (
	"strings"
	"time"
)

// Role is a set of permissions in one or more applications; at each SP of
// those applications it is a SCIM Group (spec 2.3).
type Role struct {
	ID                      int64
	Name                    string
	ShortName               string
	Description             string
	URN                     string
	Identifier              string
	DefaultExpiryDays       int
	DefaultExpiryDate       *time.Time
	EnforceEmailEquality    bool
	FedIDOnly               bool
	RequestedAuthnContext   string
	OverrideSettingsAllowed bool
	TeamsOrigin             bool
	OrganizationGUID        string
	RemoteAPIUser           string
	InviterDisplayName      string
	CRMRoleID               string
	CRMRoleName             string
	CRMRoleAbbrevation      string
	ApplicationUsages       []ApplicationUsage
	UserRoleCount           int64
	Auditable               Auditable
	// Version guards against lost updates: storage only writes a role whose
	// stored version equals this one, and increments it.
	Version int64
}

// ApplicationUsage links a role to an application with a landing page.
type ApplicationUsage struct {
	ID          int64
	LandingPage string
	Application Application
}

// Auditable records who created and last changed a record.
type Auditable struct {
	CreatedAt time.Time
	CreatedBy string
	UpdatedAt time.Time
	UpdatedBy string
}

// ManageIDs returns the manage ids of the role's applications, without duplicates.
func (r Role) ManageIDs() []string {
	seen := map[string]bool{}
	var ids []string
	for _, u := range r.ApplicationUsages {
		if !seen[u.Application.ManageID] {
			seen[u.Application.ManageID] = true
			ids = append(ids, u.Application.ManageID)
		}
	}
	return ids
}

// NormalizedRoleName is the form in which role names are unique: trimmed and
// case-folded, so that "Researchers" and "researchers " are the same role.
func NormalizedRoleName(name string) string { return strings.ToLower(strings.TrimSpace(name)) }

// ShortNameOf derives the short name from a role name: lower case, runs of
// anything but letters and digits become one dash (the reference service's
// "sanitized" name, used in the group URN).
func ShortNameOf(name string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(strings.TrimSpace(name)) {
		if (r >= 'a' && r <= 'z') || (r >= '0' && r <= '9') {
			b.WriteRune(r)
			dash = false
		} else if !dash && b.Len() > 0 {
			b.WriteByte('-')
			dash = true
		}
	}
	return strings.TrimSuffix(b.String(), "-")
}
