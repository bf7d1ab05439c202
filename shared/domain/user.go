package domain

import (
	"strings"
	"time"
)

// User is the service's record of a person (spec 2.5).
type User struct {
	ID                            int64
	Sub                           string
	SuperUser                     bool
	EduPersonPrincipalName        string
	GivenName                     string
	FamilyName                    string
	MiddleName                    string
	Name                          string
	SubjectID                     string
	FedID                         string
	UID                           string
	SchacHomeOrganization         string
	OrganizationGUID              string
	InstitutionAdmin              bool
	InstitutionAdminByInvite      bool
	Email                         string
	InternalPlaceholderIdentifier string
	CreatedAt                     time.Time
	LastActivity                  time.Time
	CRMContactID                  string
	Version                       int64
}

// DisplayName is the name shown at SPs: the full name, else given + family.
func (u User) DisplayName() string {
	if strings.TrimSpace(u.Name) != "" {
		return u.Name
	}
	return strings.TrimSpace(u.GivenName + " " + u.FamilyName)
}

// Identifier returns the value of the attribute an SP identifies users by.
// Guests with a federated account are identified by it when the SP asks for
// the eppn but the user has none (spec 1.8); the subject is the last resort.
func (u User) Identifier(kind UserIdentifier) string {
	var v string
	switch kind {
	case IdentifierEmail:
		v = u.Email
	case IdentifierFedID:
		v = u.FedID
	case IdentifierSubject:
		v = u.Sub
	default:
		v = u.EduPersonPrincipalName
		if v == "" {
			v = u.FedID
		}
	}
	if v == "" {
		v = u.Sub
	}
	return v
}

// ExternalIDAt is the user's SCIM externalId at an SP: the institution's
// placeholder id when the invitation carried one (spec 1.7), else the
// identifier the SP asks for.
func (u User) ExternalIDAt(sp ServiceProvider) string {
	if u.InternalPlaceholderIdentifier != "" {
		return u.InternalPlaceholderIdentifier
	}
	return u.Identifier(sp.UserIdentifier)
}

// SameAttributes reports whether the attributes that SPs receive are equal,
// which decides whether a login must send a SCIM PUT (spec 3.1).
func (u User) SameAttributes(o User) bool {
	return u.EduPersonPrincipalName == o.EduPersonPrincipalName && u.GivenName == o.GivenName &&
		u.FamilyName == o.FamilyName && u.Name == o.Name && u.Email == o.Email &&
		u.SchacHomeOrganization == o.SchacHomeOrganization && u.FedID == o.FedID && u.SubjectID == o.SubjectID && u.UID == o.UID
}
