package httpapi

import (
	"net/http"

	"github.com/edu-invite/invite/shared/auth"
	"github.com/edu-invite/invite/shared/service"
)

// performanceSeed creates numberOfRole (default 500) roles and
// numberOfUsers (default 75000) users, where the configuration allows it.
func (a *API) performanceSeed(w http.ResponseWriter, r *http.Request, p *auth.Principal) {
	roles, err := intParam(r, "numberOfRole", service.DefaultSeedRoles)
	if err != nil {
		writeError(w, r, err)
		return
	}
	users, err := intParam(r, "numberOfUsers", service.DefaultSeedUsers)
	if err != nil {
		writeError(w, r, err)
		return
	}
	res, err := a.Service.PerformanceSeed(r.Context(), p, roles, users)
	respond(w, r, http.StatusOK, res, err)
}
