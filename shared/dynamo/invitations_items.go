package dynamo

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/edu-invite/invite/shared/domain"
)

// invitationRetention is how long an invitation is kept after it expires
// (so that a late click reads "expired", not "unknown", and it can be
// resent) before TTL removes it: the service's retention, after which the
// cleanup job purges it, plus a margin, TTL being only the backstop.
const invitationRetention = domain.ExpiredRetention + 30*24*time.Hour

// invitationRecord is an invitation. gsi1 finds it by the digest of its
// secret; gsi2 lists the invitations of an inviter.
type invitationRecord struct {
	itemKey
	indexKeys
	Entity                        string  `dynamodbav:"entity"`
	ID                            int64   `dynamodbav:"id"`
	IntendedAuthority             string  `dynamodbav:"intendedAuthority"`
	Language                      string  `dynamodbav:"language,omitempty"`
	Status                        string  `dynamodbav:"status"`
	Email                         string  `dynamodbav:"email"`
	Message                       string  `dynamodbav:"message,omitempty"`
	EnforceEmailEquality          bool    `dynamodbav:"enforceEmailEquality,omitempty"`
	FedIDOnly                     bool    `dynamodbav:"fedIdOnly,omitempty"`
	RequestedAuthnContext         string  `dynamodbav:"requestedAuthnContext,omitempty"`
	GuestRoleIncluded             bool    `dynamodbav:"guestRoleIncluded,omitempty"`
	CreatedAt                     string  `dynamodbav:"createdAt,omitempty"`
	ExpiryDate                    string  `dynamodbav:"expiryDate"`
	RoleExpiryDate                string  `dynamodbav:"roleExpiryDate,omitempty"`
	AcceptedAt                    string  `dynamodbav:"acceptedAt,omitempty"`
	OrganizationGUID              string  `dynamodbav:"organizationGUID,omitempty"`
	InternalPlaceholderIdentifier string  `dynamodbav:"internalPlaceholderIdentifier,omitempty"`
	RemoteAPIUser                 string  `dynamodbav:"remoteApiUser,omitempty"`
	CRMContactID                  string  `dynamodbav:"crmContactId,omitempty"`
	CRMOrganisationID             string  `dynamodbav:"crmOrganisationId,omitempty"`
	RoleIDs                       []int64 `dynamodbav:"roleIds,omitempty"`
	InviterUserID                 int64   `dynamodbav:"inviterUserId,omitempty"`
	InviterName                   string  `dynamodbav:"inviterName,omitempty"`
	InviterEmail                  string  `dynamodbav:"inviterEmail,omitempty"`
	InviterAuthority              string  `dynamodbav:"inviterAuthority,omitempty"`
	HashDigest                    string  `dynamodbav:"hashDigest"`
	LinkSecret                    string  `dynamodbav:"linkSecret,omitempty"`
	Version                       int64   `dynamodbav:"version"`
}

// invitationRoleRecord links an invitation to one of its roles; gsi1 lists
// the invitations of a role, gsi2 those sent to an address (a person's
// invitations). It expires with its invitation.
type invitationRoleRecord struct {
	itemKey
	indexKeys
	Entity       string `dynamodbav:"entity"`
	InvitationID int64  `dynamodbav:"invitationId"`
	RoleID       int64  `dynamodbav:"roleId"`
	invitationListingRecord
}

// invitationListingRecord is the copy of its invitation that a role link
// carries for the role's members index (gsi4 ROLE#<roleId> / INV#<id>):
// what a role's page shows and decides with, never the link's secret.
// Every write of an invitation rewrites its links.
type invitationListingRecord struct {
	Listed            bool    `dynamodbav:"listed,omitempty"`
	Email             string  `dynamodbav:"email,omitempty"`
	IntendedAuthority string  `dynamodbav:"intendedAuthority,omitempty"`
	Status            string  `dynamodbav:"status,omitempty"`
	CreatedAt         string  `dynamodbav:"createdAt,omitempty"`
	ExpiryDate        string  `dynamodbav:"expiryDate,omitempty"`
	AcceptedAt        string  `dynamodbav:"acceptedAt,omitempty"`
	OrganizationGUID  string  `dynamodbav:"organizationGUID,omitempty"`
	RoleIDs           []int64 `dynamodbav:"roleIds,omitempty"`
	InviterUserID     int64   `dynamodbav:"inviterUserId,omitempty"`
	GuestRoleIncluded bool    `dynamodbav:"guestRoleIncluded,omitempty"`
}

// invitation is the listing copy as an invitation (id, address,
// authority, state and dates, roles, organization, inviter).
func (rec invitationRoleRecord) invitation() (domain.Invitation, error) {
	var p timeParser
	l := rec.invitationListingRecord
	inv := domain.Invitation{ID: rec.InvitationID, Email: l.Email, IntendedAuthority: domain.Authority(l.IntendedAuthority),
		Status: domain.InvitationStatus(l.Status), CreatedAt: p.time(l.CreatedAt), ExpiryDate: p.time(l.ExpiryDate),
		AcceptedAt: p.ptr(l.AcceptedAt), OrganizationGUID: l.OrganizationGUID, RoleIDs: l.RoleIDs,
		InviterUserID: l.InviterUserID, GuestRoleIncluded: l.GuestRoleIncluded}
	return inv, p.err
}

func invitationTTL(inv domain.Invitation) int64 {
	if inv.ExpiryDate.IsZero() {
		return 0
	}
	return inv.ExpiryDate.Add(invitationRetention).Unix()
}

func newInvitationRecord(inv domain.Invitation, version int64) invitationRecord {
	rec := invitationRecord{
		itemKey: invitationKey(inv.ID),
		indexKeys: indexKeys{
			GSI1PK: invitationHashPK(inv.HashDigest),
			GSI1SK: skInvitation,
			TTL:    invitationTTL(inv),
		},
		Entity:                        entityInvitation,
		ID:                            inv.ID,
		IntendedAuthority:             string(inv.IntendedAuthority),
		Language:                      string(inv.Language),
		Status:                        string(inv.Status),
		Email:                         inv.Email,
		Message:                       inv.Message,
		EnforceEmailEquality:          inv.EnforceEmailEquality,
		FedIDOnly:                     inv.FedIDOnly,
		RequestedAuthnContext:         inv.RequestedAuthnContext,
		GuestRoleIncluded:             inv.GuestRoleIncluded,
		CreatedAt:                     formatTime(inv.CreatedAt),
		ExpiryDate:                    formatTime(inv.ExpiryDate),
		RoleExpiryDate:                formatTimePtr(inv.RoleExpiryDate),
		AcceptedAt:                    formatTimePtr(inv.AcceptedAt),
		OrganizationGUID:              inv.OrganizationGUID,
		InternalPlaceholderIdentifier: inv.InternalPlaceholderIdentifier,
		RemoteAPIUser:                 inv.RemoteAPIUser,
		CRMContactID:                  inv.CRMContactID,
		CRMOrganisationID:             inv.CRMOrganisationID,
		RoleIDs:                       inv.RoleIDs,
		InviterUserID:                 inv.InviterUserID,
		InviterName:                   inv.InviterName,
		InviterEmail:                  inv.InviterEmail,
		InviterAuthority:              string(inv.InviterAuthority),
		HashDigest:                    inv.HashDigest,
		LinkSecret:                    inv.LinkSecret,
		Version:                       version,
	}
	if inv.Status == domain.InvitationOpen && !inv.ExpiryDate.IsZero() {
		// gsi3 holds open invitations by the day they expire, for cleanup.
		rec.GSI3PK = invitationExpiresPK(inv.ExpiryDate)
		rec.GSI3SK = timeOrdered(inv.ExpiryDate, id(inv.ID))
	}
	if inv.Status == domain.InvitationOpen {
		// gsi4 lists every open invitation, newest last (I4 without a role);
		// accepting or deleting the invitation takes it out.
		rec.GSI4PK = openInvitationsPK
		rec.GSI4SK = timeOrdered(inv.CreatedAt, fmt.Sprintf("%019d", inv.ID))
	}
	switch {
	case inv.InviterUserID != 0:
		rec.GSI2PK = inviterPK(inv.InviterUserID)
		rec.GSI2SK = invitationPK(inv.ID)
	case inv.RemoteAPIUser != "":
		// a program's invitations (invitations/mine of an API token)
		rec.GSI2PK = remoteInviterPK(inv.RemoteAPIUser)
		rec.GSI2SK = invitationPK(inv.ID)
	}
	return rec
}

func (rec invitationRecord) domain() (domain.Invitation, error) {
	var p timeParser
	inv := domain.Invitation{
		ID:                            rec.ID,
		IntendedAuthority:             domain.Authority(rec.IntendedAuthority),
		Language:                      domain.Language(rec.Language),
		Status:                        domain.InvitationStatus(rec.Status),
		Email:                         rec.Email,
		Message:                       rec.Message,
		EnforceEmailEquality:          rec.EnforceEmailEquality,
		FedIDOnly:                     rec.FedIDOnly,
		RequestedAuthnContext:         rec.RequestedAuthnContext,
		GuestRoleIncluded:             rec.GuestRoleIncluded,
		CreatedAt:                     p.time(rec.CreatedAt),
		ExpiryDate:                    p.time(rec.ExpiryDate),
		RoleExpiryDate:                p.ptr(rec.RoleExpiryDate),
		AcceptedAt:                    p.ptr(rec.AcceptedAt),
		OrganizationGUID:              rec.OrganizationGUID,
		InternalPlaceholderIdentifier: rec.InternalPlaceholderIdentifier,
		RemoteAPIUser:                 rec.RemoteAPIUser,
		CRMContactID:                  rec.CRMContactID,
		CRMOrganisationID:             rec.CRMOrganisationID,
		RoleIDs:                       rec.RoleIDs,
		InviterUserID:                 rec.InviterUserID,
		InviterName:                   rec.InviterName,
		InviterEmail:                  rec.InviterEmail,
		InviterAuthority:              domain.Authority(rec.InviterAuthority),
		HashDigest:                    rec.HashDigest,
		LinkSecret:                    rec.LinkSecret,
		Version:                       rec.Version,
	}
	return inv, p.err
}

func newInvitationRoleRecord(inv domain.Invitation, roleID int64) invitationRoleRecord {
	gsi1sk, gsi4sk := invitationLinkSortKeys(inv.ID, inv.Status)
	return invitationRoleRecord{
		itemKey: invitationRoleKey(inv.ID, roleID),
		indexKeys: indexKeys{
			GSI1PK: prefixRole + id(roleID),
			GSI1SK: gsi1sk,
			GSI2PK: invitationPersonPK(inv.Email),
			GSI2SK: invitationPersonSK(inv.ID, roleID, inv.Email),
			GSI4PK: membersIndexPK(roleID),
			GSI4SK: gsi4sk,
			TTL:    invitationTTL(inv),
		},
		Entity:       entityInvitationRole,
		InvitationID: inv.ID,
		RoleID:       roleID,
		invitationListingRecord: invitationListingRecord{Listed: true, Email: inv.Email,
			IntendedAuthority: string(inv.IntendedAuthority), Status: string(inv.Status), CreatedAt: formatTime(inv.CreatedAt),
			ExpiryDate: formatTime(inv.ExpiryDate), AcceptedAt: formatTimePtr(inv.AcceptedAt), OrganizationGUID: inv.OrganizationGUID,
			RoleIDs: inv.RoleIDs, InviterUserID: inv.InviterUserID, GuestRoleIncluded: inv.GuestRoleIncluded},
	}
}

func decodeInvitation(av item) (domain.Invitation, error) {
	var rec invitationRecord
	if err := unmarshal(av, &rec); err != nil {
		return domain.Invitation{}, err
	}
	return rec.domain()
}

// invitationsByID decodes invitations and orders them by id, the order of
// every invitation listing that has no sort of its own.
func invitationsByID(items []item) ([]domain.Invitation, error) {
	invs, err := decodeAll(items, decodeInvitation)
	if err != nil {
		return nil, err
	}
	slices.SortFunc(invs, func(a, b domain.Invitation) int { return cmp.Compare(a.ID, b.ID) })
	return invs, nil
}

func invitationKey(invID int64) itemKey { return itemKey{PK: invitationPK(invID), SK: skInvitation} }

func invitationPK(invID int64) string { return prefixInvitation + id(invID) }

func invitationRoleKey(invID, roleID int64) itemKey {
	return itemKey{PK: invitationPK(invID), SK: prefixRole + id(roleID)}
}

func invitationHashPK(digest string) string { return "INVHASH#" + digest }

func invitationExpiresPK(t time.Time) string { return "INVEXPIRES#" + dayOf(t) }

// openInvitationsPK is the gsi4 partition of every open invitation (I4
// without a role): a sparse index, written only while an invitation is
// OPEN.
const openInvitationsPK = "INVOPEN"

// prefixInvitationHistory starts the sort keys of the role links of
// invitations no longer open (accepted ones, kept a year), in gsi1 and the
// members index (gsi4), so that reads of a role's open invitations and
// its page (INV#…) never read its history: INVH# sorts after INV# and
// before UR#.
const prefixInvitationHistory = "INVH#"

// invitationLinkSortKeys are a role link's gsi1 and gsi4 sort keys: INV#<id>
// while its invitation is open; else INVH#<id> in gsi1 and, in the members
// index, INVH#<id counted down, 19 digits>, newest first, so that the role
// page reads the latest of its history without the rest.
func invitationLinkSortKeys(invID int64, status domain.InvitationStatus) (gsi1sk, gsi4sk string) {
	if status == domain.InvitationOpen || status == "" {
		return invitationPK(invID), invitationPK(invID)
	}
	return prefixInvitationHistory + id(invID), prefixInvitationHistory + fmt.Sprintf("%019d", math.MaxInt64-invID)
}

// prefixInvitationPerson starts the gsi2 partition of the role links of
// the invitations sent to one address, trimmed and lower case:
// INVPERSON#<address> / <id counted down, 19 digits>#<roleId>, newest
// first, so that a person's invitations are one Query whatever the
// histories of their roles. The address is personal data: the key is
// never logged (loggableKey logs primary keys only).
const prefixInvitationPerson = "INVPERSON#"

// invitationPersonAddress is the form of an address in the person's key.
func invitationPersonAddress(email string) string { return strings.ToLower(strings.TrimSpace(email)) }

// invitationPersonPK is the gsi2 partition of the links of the invitations
// sent to email; "" (no key) for an invitation without an address.
func invitationPersonPK(email string) string {
	if a := invitationPersonAddress(email); a != "" {
		return prefixInvitationPerson + a
	}
	return ""
}

// invitationPersonSK orders a person's links newest invitation first.
func invitationPersonSK(invID, roleID int64, email string) string {
	if invitationPersonAddress(email) == "" {
		return ""
	}
	return fmt.Sprintf("%019d#%s", math.MaxInt64-invID, id(roleID))
}
