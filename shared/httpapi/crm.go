package httpapi

import (
	"net/http"
	"strings"

	"github.com/edu-invite/invite/shared/auth"
	"github.com/edu-invite/invite/shared/domain"
	"github.com/edu-invite/invite/shared/service"
)

func (a *API) crmProfile(w http.ResponseWriter, r *http.Request) {
	p, req, ok := crmCallerAndProfile(w, r)
	if !ok {
		return
	}
	res, err := a.Service.CRMProfile(r.Context(), p, service.CRMProfileInput{UID: req.UID, SchacHomeOrganisation: req.SchacHomeOrganisation,
		SuppressInvitation: req.SuppressInvitation, ContactID: req.ContactID, Firstname: req.Firstname, Middlename: req.Middlename,
		Surname: req.Surname, Email: req.Email, Roles: crmRoleInputs(req.Roles),
		Organisation: domain.CRMOrganisation{OrganisationID: req.Organisation.OrganisationID, Abbrev: req.Organisation.Abbrev, Name: req.Organisation.Name}})
	respondCRMString(w, r, res, err)
}

func (a *API) crmDeleteProfile(w http.ResponseWriter, r *http.Request) {
	p, req, ok := crmCallerAndProfile(w, r)
	if !ok {
		return
	}
	res, err := a.Service.CRMDeleteProfile(r.Context(), p, req.Organisation.OrganisationID, req.ContactID)
	respondCRMString(w, r, res, err)
}

func (a *API) crmSendInvitation(w http.ResponseWriter, r *http.Request) {
	p, req, ok := crmCallerAndBody[crmInviteRequest](w, r)
	if !ok {
		return
	}
	res, err := a.Service.CRMSendInvitation(r.Context(), p, service.CRMInviteInput{OrganisationID: req.OrganisationID,
		ContactID: req.ContactID, Email: req.Email, Roles: crmRoleInputs(req.Roles)})
	respondCRMString(w, r, res, err)
}

func (a *API) crmResendInvitation(w http.ResponseWriter, r *http.Request) {
	p, req, ok := crmCallerAndBody[crmContactRequest](w, r)
	if !ok {
		return
	}
	res, err := a.Service.CRMResendInvitation(r.Context(), p, req.OrganisationID, req.ContactID)
	// Not respond: the answer dereferences isoTime, nil for the zero result
	// that comes with an error.
	if err != nil {
		writeError(w, r, err)
		return
	}
	// Spec 7: a resend answers {timestamp, status, key, message}, also when no
	// invitation was found (status 404).
	writeJSON(w, res.Status, crmResendResponse{Timestamp: *isoTime(res.Timestamp), Status: res.Status, Key: res.Key, Message: res.Message})
}

func (a *API) crmRemoveRoles(w http.ResponseWriter, r *http.Request) {
	p, req, ok := crmCallerAndBody[crmContactRequest](w, r)
	if !ok {
		return
	}
	res, err := a.Service.CRMRemoveRoles(r.Context(), p, req.OrganisationID, req.ContactID)
	respondCRMString(w, r, res, err)
}

// crmOrganisationUsers: the reference reads {org_guid, connected}
// from the body of this GET; the query parameters of the same names are
// accepted too, for clients that cannot send a body with GET.
func (a *API) crmOrganisationUsers(w http.ResponseWriter, r *http.Request) {
	p, ok := requireCRMCaller(w, r, isCRM)
	if !ok {
		return
	}
	var req crmOrganisationLookupRequest
	if q := r.URL.Query(); q.Get("org_guid") != "" {
		req.OrganisationID = q.Get("org_guid")
		if strings.TrimSpace(q.Get("connected")) != "" {
			v, err := boolParam(r, "connected", false)
			if err != nil {
				writeError(w, r, err)
				return
			}
			req.Connected = &v
		}
	} else if !decode(w, r, &req) {
		return
	}
	entries, err := a.Service.CRMOrganisationUsers(r.Context(), p, req.OrganisationID, req.Connected)
	if err != nil {
		writeError(w, r, err)
		return
	}
	out := make(map[string]crmUserEntryDTO, len(entries))
	for k, e := range entries {
		out[k] = crmUserEntryOf(e)
	}
	writeJSON(w, http.StatusOK, out)
}

// crmProfiles serves both of the reference's paths.
func (a *API) crmProfiles(w http.ResponseWriter, r *http.Request) {
	p, ok := requireCRMCaller(w, r, (*auth.Principal).CanUseCRMProfileSearch)
	if !ok {
		return
	}
	q := r.URL.Query()
	res, err := a.Service.CRMProfiles(r.Context(), p, service.CRMProfileQuery{UID: q.Get("uid"), IDP: q.Get("idp"), GUID: q.Get("guid"), Role: q.Get("role")})
	out := crmProfileResponse{Message: res.Message, Code: res.Code, Profiles: mapSlice(res.Profiles, crmProfileOf)}
	respond(w, r, http.StatusOK, out, err)
}

// crmOrganisations lists every CRM organisation.
func (a *API) crmOrganisations(w http.ResponseWriter, r *http.Request) {
	p, ok := requireCRMCaller(w, r, isCRM)
	if !ok {
		return
	}
	orgs, err := a.Service.CRMOrganisations(r.Context(), p)
	respond(w, r, http.StatusOK, mapSlice(orgs, func(o domain.CRMOrganisation) crmOrganisationDTO {
		return crmOrganisationDTO{OrganisationID: o.OrganisationID, Abbrev: o.Abbrev, Name: o.Name}
	}), err)
}

// crmDeleteOrganisation deletes the organisation named in the body.
func (a *API) crmDeleteOrganisation(w http.ResponseWriter, r *http.Request) {
	p, ok := requireCRMCaller(w, r, isCRM)
	if !ok {
		return
	}
	var req crmOrganisationDTO
	if !decode(w, r, &req) {
		return
	}
	err := a.Service.CRMDeleteOrganisation(r.Context(), p, req.OrganisationID)
	respond(w, r, http.StatusOK, map[string]string{"status": "deleted"}, err)
}
