package httpapi

import (
	"net/http"

	"github.com/edu-invite/invite/shared/auth"
)

func (a *API) unknownRoles(w http.ResponseWriter, r *http.Request, p *auth.Principal) {
	roles, err := a.Service.UnknownRoles(r.Context(), p)
	respond(w, r, http.StatusOK, rolesJSON(roles), err)
}

func (a *API) providerMetadata(w http.ResponseWriter, r *http.Request, p *auth.Principal) {
	md, err := a.Service.ProviderMetadata(p, r.PathValue("type"), r.PathValue("id"))
	respond(w, r, http.StatusOK, md, err)
}

// manageApplications lists the applications and SCIM targets the caller's
// roles use (all of them for super users).
func (a *API) manageApplications(w http.ResponseWriter, r *http.Request) {
	p, ok := requireCaller(w, r)
	if !ok {
		return
	}
	res, err := a.Service.Applications(r.Context(), p)
	respond(w, r, http.StatusOK, res, err)
}
