package dynamo

import (
	"strings"

	"github.com/edu-invite/invite/shared/domain"
)

// Entities of the CRM links.
const (
	entityCRMOrganisation = "CRMOrganisation"
	entityCRMContact      = "CRMContact"
	entityCRMInvitation   = "CRMInvitation"
)

// A CRM organisation's partition holds the organisation itself, one link
// per contact (to its user) and one link per CRM invitation, so that the
// organisation lookup (C6) is one Query. gsi1 leads from a contact id to
// its organisations (the CRM profile search starting from a user, C7).
const (
	skCRMOrganisation       = "ORG"
	prefixCRMContact        = "CONTACT#"
	prefixCRMInvitationLink = "INV#"
)

func crmOrganisationPK(organisationID string) string { return "CRMORG#" + organisationID }
func crmOrganisationKey(organisationID string) itemKey {
	return itemKey{PK: crmOrganisationPK(organisationID), SK: skCRMOrganisation}
}
func crmContactKey(organisationID, contactID string) itemKey {
	return itemKey{PK: crmOrganisationPK(organisationID), SK: prefixCRMContact + contactID}
}
func crmContactGSI1PK(contactID string) string { return "CRMCONTACT#" + contactID }

// gsi1CRMOrganisations is the gsi1 partition indexing every CRM organisation
// (gsi1sk CRMORG#<organisationId>), so that the CRM's organisation list is
// one Query. Organisations written before the index existed are in it from
// their next write.
const gsi1CRMOrganisations = "CRMORGS"

// crmInvitationLinkKey sorts a contact's invitations together:
// INV#<contactId>#<invitationId>.
func crmInvitationLinkKey(organisationID, contactID string, invID int64) itemKey {
	return itemKey{PK: crmOrganisationPK(organisationID), SK: crmInvitationLinkPrefix(contactID) + id(invID)}
}
func crmInvitationLinkPrefix(contactID string) string {
	if contactID == "" {
		return prefixCRMInvitationLink
	}
	return prefixCRMInvitationLink + contactID + "#"
}

type crmOrganisationRecord struct {
	itemKey
	indexKeys
	Entity         string `dynamodbav:"entity"`
	OrganisationID string `dynamodbav:"organisationId"`
	Abbrev         string `dynamodbav:"abbrev,omitempty"`
	Name           string `dynamodbav:"name,omitempty"`
}

func newCRMOrganisationRecord(o domain.CRMOrganisation) crmOrganisationRecord {
	return crmOrganisationRecord{itemKey: crmOrganisationKey(o.OrganisationID),
		indexKeys: indexKeys{GSI1PK: gsi1CRMOrganisations, GSI1SK: crmOrganisationPK(o.OrganisationID)}, Entity: entityCRMOrganisation,
		OrganisationID: o.OrganisationID, Abbrev: o.Abbrev, Name: o.Name}
}

func (rec crmOrganisationRecord) domain() (domain.CRMOrganisation, error) {
	return domain.CRMOrganisation{OrganisationID: rec.OrganisationID, Abbrev: rec.Abbrev, Name: rec.Name}, nil
}

type crmContactRecord struct {
	itemKey
	indexKeys
	Entity         string `dynamodbav:"entity"`
	OrganisationID string `dynamodbav:"organisationId"`
	ContactID      string `dynamodbav:"contactId"`
	UserID         int64  `dynamodbav:"userId"`
}

func newCRMContactRecord(c domain.CRMContact) crmContactRecord {
	return crmContactRecord{itemKey: crmContactKey(c.OrganisationID, c.ContactID),
		indexKeys: indexKeys{GSI1PK: crmContactGSI1PK(c.ContactID), GSI1SK: crmOrganisationPK(c.OrganisationID)},
		Entity:    entityCRMContact, OrganisationID: c.OrganisationID, ContactID: c.ContactID, UserID: c.UserID}
}

func (rec crmContactRecord) domain() (domain.CRMContact, error) {
	return domain.CRMContact{OrganisationID: rec.OrganisationID, ContactID: rec.ContactID, UserID: rec.UserID}, nil
}

// crmInvitationRecord links a CRM contact to an invitation; it expires with
// the invitation.
type crmInvitationRecord struct {
	itemKey
	indexKeys
	Entity       string `dynamodbav:"entity"`
	ContactID    string `dynamodbav:"contactId"`
	InvitationID int64  `dynamodbav:"invitationId"`
}

func newCRMInvitationRecord(inv domain.Invitation) crmInvitationRecord {
	return crmInvitationRecord{itemKey: crmInvitationLinkKey(inv.CRMOrganisationID, inv.CRMContactID, inv.ID),
		indexKeys: indexKeys{TTL: invitationTTL(inv)},
		Entity:    entityCRMInvitation, ContactID: inv.CRMContactID, InvitationID: inv.ID}
}

// validCRMID keeps ids usable inside keys: "#" separates key parts.
func validCRMID(what, v string) error {
	if strings.TrimSpace(v) == "" || strings.Contains(v, "#") {
		return domain.Invalidf("%s is required and cannot contain '#'", what)
	}
	return nil
}
