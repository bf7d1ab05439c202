package httpapi

import (
	"net/http"

	"github.com/edu-invite/invite/shared/auth"
	"github.com/edu-invite/invite/shared/domain"
)

func (a *API) unknownRoles(w http.ResponseWriter, r *http.Request, p *auth.Principal) {
	roles, err := a.Service.UnknownRoles(r.Context(), p)
	respond(w, r, http.StatusOK, rolesJSON(roles), err)
}

// landingPageFix answers the counts of what it changed.
func (a *API) landingPageFix(w http.ResponseWriter, r *http.Request, p *auth.Principal) {
	res, err := a.Service.FixLandingPages(r.Context(), p)
	respond(w, r, http.StatusOK,
		map[string]int{"status": http.StatusOK, "roles": res.Roles, "applicationUsages": res.ApplicationUsages}, err)
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

// dateRepair lists (GET) the stored dates written before dates were
// bounded on input: each with its entity, id, field, stored and repaired
// value. The repair itself (POST) is a job (startJob).
func (a *API) dateRepair(apply bool) func(http.ResponseWriter, *http.Request, *auth.Principal) {
	return func(w http.ResponseWriter, r *http.Request, p *auth.Principal) {
		repairs, err := a.Service.RepairDates(r.Context(), p, apply)
		if repairs == nil {
			repairs = []domain.DateRepair{}
		}
		respond(w, r, http.StatusOK, map[string]any{"applied": apply, "repairs": repairs}, err)
	}
}
