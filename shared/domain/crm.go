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
	// RenewCRMInvitation replaces an invitation whose stored version is
	// inv.Version (a resend: new expiry and secret). KindNotFound when the
	// invitation is gone, ErrVersionConflict when it changed.
	RenewCRMInvitation(ctx context.Context, inv Invitation) error
	// DeleteCRMInvitations deletes each invitation (version-checked) with its
	// role links and CRM link, one transaction per invitation. KindNotFound
	// when an invitation is gone, ErrVersionConflict when one changed.
	DeleteCRMInvitations(ctx context.Context, invs []Invitation) error
}
