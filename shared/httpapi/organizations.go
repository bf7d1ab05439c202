package httpapi

import (
	"net/http"

	"github.com/edu-invite/invite/shared/domain"
	"github.com/edu-invite/invite/shared/service"
)

// OrganizationJSON is an organization with its names; source says who named
// it: "service" (a super user, kept by the service) or "registry" (its
// applications, until a super user names it).
type OrganizationJSON struct {
	OrganizationGUID string `json:"organizationGUID"`
	Name             string `json:"name"`
	NameNl           string `json:"nameNl,omitempty"`
	Source           string `json:"source"`
}

// OrganizationRequest names an organization; organizationGUID is read on
// creation only (empty: a new one), the path names it on a rename.
type OrganizationRequest struct {
	OrganizationGUID string `json:"organizationGUID"`
	Name             string `json:"name"`
	NameNl           string `json:"nameNl"`
}

func organizationJSON(o domain.Organization, stored bool) OrganizationJSON {
	src := "registry"
	if stored {
		src = "service"
	}
	return OrganizationJSON{OrganizationGUID: o.GUID, Name: o.Name, NameNl: o.NameNL, Source: src}
}

// listOrganizations: super users every organization, institution admins and
// organization tokens their own.
func (a *API) listOrganizations(w http.ResponseWriter, r *http.Request) {
	p, ok := requireCaller(w, r)
	if !ok {
		return
	}
	orgs, err := a.Service.ListOrganizations(r.Context(), p)
	out := make([]OrganizationJSON, 0, len(orgs))
	for _, o := range orgs {
		out = append(out, organizationJSON(o.Organization, o.Stored))
	}
	respond(w, r, http.StatusOK, out, err)
}

func (a *API) createOrganization(w http.ResponseWriter, r *http.Request) {
	if p, in, ok := callerAndBody[OrganizationRequest](w, r); ok {
		o, err := a.Service.CreateOrganization(r.Context(), p, service.OrganizationInput{GUID: in.OrganizationGUID, Name: in.Name, NameNL: in.NameNl})
		respond(w, r, http.StatusCreated, organizationJSON(o, true), err)
	}
}

func (a *API) renameOrganization(w http.ResponseWriter, r *http.Request) {
	if p, in, ok := callerAndBody[OrganizationRequest](w, r); ok {
		o, err := a.Service.RenameOrganization(r.Context(), p, r.PathValue("organizationGUID"), service.OrganizationInput{Name: in.Name, NameNL: in.NameNl})
		respond(w, r, http.StatusOK, organizationJSON(o, true), err)
	}
}
