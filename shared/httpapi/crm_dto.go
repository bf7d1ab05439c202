package httpapi

import (
	"github.com/edu-invite/invite/shared/domain"
	"github.com/edu-invite/invite/shared/service"
)

// CRM request and response bodies, with the reference's names.

type crmOrganisationDTO struct {
	OrganisationID string `json:"organisationId"`
	Abbrev         string `json:"abbrev"`
	Name           string `json:"name"`
}

type crmRoleDTO struct {
	RoleID  string `json:"roleId"`
	SabCode string `json:"sabCode"`
	Name    string `json:"name"`
}

type crmProfileRequest struct {
	UID                   string              `json:"uid"`
	SchacHomeOrganisation string              `json:"schacHomeOrganisation"`
	SuppressInvitation    bool                `json:"suppressInvitation"`
	ContactID             string              `json:"contactId"`
	Firstname             string              `json:"firstname"`
	Middlename            string              `json:"middlename"`
	Surname               string              `json:"surname"`
	Email                 string              `json:"email"`
	Organisation          *crmOrganisationDTO `json:"organisation"`
	Roles                 []crmRoleDTO        `json:"roles"`
}

type crmInviteRequest struct {
	OrganisationID string       `json:"org_id"`
	ContactID      string       `json:"guid"`
	Email          string       `json:"email"`
	Roles          []crmRoleDTO `json:"roles"`
}

// crmContactRequest is the resend and remove request.
type crmContactRequest struct {
	OrganisationID string `json:"org_id"`
	ContactID      string `json:"guid"`
}

type crmOrganisationLookupRequest struct {
	OrganisationID string `json:"org_guid"`
	Connected      *bool  `json:"connected"`
}

type crmResendResponse struct {
	Timestamp string `json:"timestamp"`
	Status    int    `json:"status"`
	Key       string `json:"key"`
	Message   string `json:"message"`
}

type crmUserEntryDTO struct {
	GUID         string            `json:"guid"`
	Firstname    string            `json:"firstname,omitempty"`
	Middlename   string            `json:"middlename,omitempty"`
	Surname      string            `json:"surname,omitempty"`
	Fullname     string            `json:"fullname,omitempty"`
	Email        string            `json:"email"`
	Mobile       *string           `json:"mobile"`
	Organisation map[string]string `json:"organisation"`
	Link         map[string]string `json:"link"`
	Status       string            `json:"status"`
	StatusCode   string            `json:"status_code"`
}

type crmAuthorisationDTO struct {
	Short  string `json:"short"`
	Role   string `json:"role"`
	RoleID string `json:"roleId"`
}

type crmProfileDTO struct {
	Firstname      string                `json:"firstname"`
	Middlename     string                `json:"middlename"`
	Surname        string                `json:"surname"`
	Email          string                `json:"email"`
	Mobile         *string               `json:"mobile"`
	IDP            string                `json:"idp"`
	UID            string                `json:"uid"`
	GUID           string                `json:"guid"`
	Organisation   map[string]string     `json:"organisation"`
	Authorisations []crmAuthorisationDTO `json:"authorisations"`
}

type crmProfileResponse struct {
	Message  string          `json:"message"`
	Code     int             `json:"code"`
	Profiles []crmProfileDTO `json:"profiles"`
}

func crmRoleInputs(roles []crmRoleDTO) []service.CRMRoleInput {
	out := make([]service.CRMRoleInput, 0, len(roles))
	for _, r := range roles {
		out = append(out, service.CRMRoleInput{RoleID: r.RoleID, SabCode: r.SabCode, Name: r.Name})
	}
	return out
}

func crmOrganisationMap(o domain.CRMOrganisation) map[string]string {
	return map[string]string{"guid": o.OrganisationID, "abbrev": o.Abbrev, "name": o.Name}
}

func crmUserEntryOf(e service.CRMUserEntry) crmUserEntryDTO {
	d := crmUserEntryDTO{GUID: e.ContactID, Email: e.Email, Organisation: crmOrganisationMap(e.Organisation),
		Link: map[string]string{}, Status: e.Status, StatusCode: service.CRMStatusCode(e.Status)}
	if u := e.User; u != nil {
		d.Firstname, d.Middlename, d.Surname, d.Fullname = u.GivenName, u.MiddleName, u.FamilyName, u.DisplayName()
		if e.Status == service.CRMPaired {
			d.Link = map[string]string{"uid": u.UID, "idp": u.SchacHomeOrganization}
		}
	}
	return d
}

func crmProfileOf(p service.CRMProfile) crmProfileDTO {
	u := p.User
	d := crmProfileDTO{Firstname: u.GivenName, Middlename: u.MiddleName, Surname: u.FamilyName, Email: u.Email,
		IDP: u.SchacHomeOrganization, UID: u.UID, GUID: u.CRMContactID, Organisation: crmOrganisationMap(p.Organisation),
		Authorisations: []crmAuthorisationDTO{}}
	for _, r := range p.Authorisations {
		d.Authorisations = append(d.Authorisations, crmAuthorisationDTO{Short: r.CRMRoleAbbrevation, Role: r.CRMRoleName, RoleID: r.CRMRoleID})
	}
	return d
}
