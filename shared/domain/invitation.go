package domain

import "time"

// InvitationStatus is where an invitation stands. The spec shows only OPEN;
// the others are the reference service's.
type InvitationStatus string

const (
	InvitationOpen     InvitationStatus = "OPEN"
	InvitationAccepted InvitationStatus = "ACCEPTED"
	InvitationExpired  InvitationStatus = "EXPIRED"
)

// Language of the invitation e-mail.
type Language string

const (
	English Language = "en"
	Dutch   Language = "nl"
)

// Invitation invites one e-mail recipient to one or more roles (spec 2.7).
type Invitation struct {
	ID                            int64
	IntendedAuthority             Authority
	Language                      Language
	Status                        InvitationStatus
	Email                         string
	Message                       string
	EnforceEmailEquality          bool
	FedIDOnly                     bool
	RequestedAuthnContext         string
	GuestRoleIncluded             bool
	CreatedAt                     time.Time
	ExpiryDate                    time.Time
	RoleExpiryDate                *time.Time
	AcceptedAt                    *time.Time
	OrganizationGUID              string
	InternalPlaceholderIdentifier string
	RemoteAPIUser                 string
	CRMContactID                  string
	CRMOrganisationID             string
	RoleIDs                       []int64
	// InviterUserID is 0 when an API token or machine caller invited.
	InviterUserID int64
	InviterName   string
	InviterEmail  string
	// InviterAuthority is the authority by which the inviter granted
	// (auth.InviterAuthority); acceptance grants no more than it allows.
	// Empty for invitations made before it was recorded.
	InviterAuthority Authority
	// HashDigest is the SHA-256 of the secret in the invitation link; the
	// secret itself is only ever in the e-mail and the create response.
	HashDigest string
	// LinkSecret is the secret of the link itself, kept (as the reference
	// keeps its hash) so that a resent invitation carries the same link. It
	// is never logged nor answered except in the create response. Empty for
	// invitations made before it was kept: their resend issues a new link.
	LinkSecret string
	Version    int64
}

// ExpiredRetention is how long an expired invitation is kept: its link
// answers "expired" (410) and it can be resent, until it is purged.
const ExpiredRetention = 365 * 24 * time.Hour

// Expired reports whether the invitation can no longer be accepted at now.
func (i Invitation) Expired(now time.Time) bool { return !now.Before(i.ExpiryDate) }
