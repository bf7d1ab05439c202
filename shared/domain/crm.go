package domain

import "context"

// CRMOrganisation is an organisation as the CRM knows it (spec 2.10). Its
// id is also the organizationGUID of the roles that CRM roles map to.
type CRMOrganisation struct {
	OrganisationID string
	Abbrev         string
	Name           string
}

// CRMContact links a CRM contact of an organisation to the service's user.
type CRMContact struct {
	OrganisationID string
	ContactID      string
	UserID         int64
}

// CRMInvitationLink names an invitation of a CRM contact of an
// organisation.
type CRMInvitationLink struct {
	ContactID    string
	InvitationID int64
}

// CRMStore keeps what links CRM organisations and contacts to users and
// invitations. Users themselves are written only through UserStore,
// InvitationStore.SaveAcceptance and LifecycleStore.ApplyRemoval.
type CRMStore interface {
	// PutCRMOrganisation creates or replaces an organisation. KindInvalid for
	// an id that is empty or holds '#'.
	PutCRMOrganisation(ctx context.Context, o CRMOrganisation) error
	// GetCRMOrganisation reads an organisation. KindNotFound when there is no
	// such organisation.
	GetCRMOrganisation(ctx context.Context, organisationID string) (CRMOrganisation, error)
	// ListCRMOrganisations returns up to limit organisations by id, more set
	// when there are more. No domain error (none: empty).
	ListCRMOrganisations(ctx context.Context, limit int) (orgs []CRMOrganisation, more bool, err error)
	// DeleteCRMOrganisation removes an organisation (its contacts' links
	// stay). KindNotFound when there is no such organisation.
	DeleteCRMOrganisation(ctx context.Context, organisationID string) error
	// PutCRMContact creates or replaces a contact's link to a user.
	// KindInvalid for an id that is empty or holds '#'.
	PutCRMContact(ctx context.Context, c CRMContact) error
	// GetCRMContact reads a contact's link to a user. KindNotFound when there
	// is no such contact.
	GetCRMContact(ctx context.Context, organisationID, contactID string) (CRMContact, error)
	// DeleteCRMContact removes a contact's link. Deleting an absent contact is
	// no error.
	DeleteCRMContact(ctx context.Context, organisationID, contactID string) error
	// ListCRMContacts returns the contacts of an organisation, by contact id.
	// No domain error (none: empty).
	ListCRMContacts(ctx context.Context, organisationID string) ([]CRMContact, error)
	// ListCRMContactsAfter returns at most limit contacts of an
	// organisation after the contact after ("": from the first), by contact
	// id; more is set when there may be more. No domain error.
	ListCRMContactsAfter(ctx context.Context, organisationID, after string, limit int) (contacts []CRMContact, more bool, err error)
	// GetCRMContacts reads contacts of an organisation by contact id; absent
	// ones are left out. No domain error.
	GetCRMContacts(ctx context.Context, organisationID string, contactIDs []string) (map[string]CRMContact, error)
	// ListCRMContactsByContactID returns a contact's links in every
	// organisation. No domain error (none: empty).
	ListCRMContactsByContactID(ctx context.Context, contactID string) ([]CRMContact, error)

	// CreateCRMInvitation writes an invitation (version 1), its role links and
	// its link to the CRM contact in one transaction. KindConflict when the id
	// is taken; KindInvalid for CRM ids that are empty or hold '#'.
	CreateCRMInvitation(ctx context.Context, inv Invitation) error
	// ListCRMInvitations returns the invitations of a contact of an
	// organisation (contactID empty: of every contact), by id. No domain error
	// (none: empty).
	ListCRMInvitations(ctx context.Context, organisationID, contactID string) ([]Invitation, error)
	// ListCRMInvitationLinksAfter returns at most limit links to the
	// invitations of an organisation's contacts after the link after (zero:
	// from the first), by contact id and then invitation id, without reading
	// the invitations; more is set when there may be more. No domain error.
	ListCRMInvitationLinksAfter(ctx context.Context, organisationID string, after CRMInvitationLink, limit int) (links []CRMInvitationLink, more bool, err error)
	// GetCRMInvitations reads invitations by id, by id; absent ones are left
	// out. No domain error.
	GetCRMInvitations(ctx context.Context, ids []int64) ([]Invitation, error)
	// RenewCRMInvitation replaces an invitation whose stored version is
	// inv.Version (a resend: new expiry and secret). KindNotFound when the
	// invitation is gone, ErrVersionConflict when it changed.
	RenewCRMInvitation(ctx context.Context, inv Invitation) error
	// DeleteCRMInvitations deletes each invitation (version-checked) with its
	// role links and CRM link, one transaction per invitation. KindNotFound
	// when an invitation is gone, ErrVersionConflict when one changed.
	DeleteCRMInvitations(ctx context.Context, invs []Invitation) error
}
