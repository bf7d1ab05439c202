package httpapi

import (
	"net/http"
	"time"

	"github.com/edu-invite/invite/shared/auth"
	"github.com/edu-invite/invite/shared/domain"
)

func (a *API) systemRoutes(mux *routes) {
	mux.HandleFunc("GET /health", health)
	mux.HandleFunc("GET /api/docs/openapi.json", serveOpenAPI)
	mux.HandleFunc("GET /api/docs", serveDocsPage)
	mux.HandleFunc("GET /api/docs/assets/{file}", serveDocsAsset)
	mux.HandleFunc("GET /api/v1/system/expiry-user-roles", a.superUser(a.expiringUserRoles))
	mux.HandleFunc("GET /api/v1/system/cron/expiry-notifications", a.superUser(a.runReminders))
	mux.HandleFunc("GET /api/v1/system/cron/cleanup", a.superUser(a.runCleanup))
	a.deliveryRoutes(mux)
	a.mailRoutes(mux)
	a.maintenanceRoutes(mux)
	a.registryRoutes(mux)
	a.seedRoutes(mux)
}

// superUser guards the maintenance operations (spec 5.2: super user only).
func (a *API) superUser(next func(http.ResponseWriter, *http.Request, *auth.Principal)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		p, ok := requireCaller(w, r)
		if !ok {
			return
		}
		if !p.SuperUser {
			writeError(w, r, domain.Forbiddenf("super users only"))
			return
		}
		next(w, r, p)
	}
}

// expiringUserRoles is S4: memberships ending within 30 days.
func (a *API) expiringUserRoles(w http.ResponseWriter, r *http.Request, _ *auth.Principal) {
	urs, err := a.Service.ExpiringUserRoles(r.Context(), 30*24*time.Hour)
	respond(w, r, http.StatusOK, mapSlice(urs, func(ur domain.UserRole) UserRoleJSON { return userRoleJSON(ur, nil) }), err)
}

// runReminders is S5: the reminder job on demand, answering what was sent.
func (a *API) runReminders(w http.ResponseWriter, r *http.Request, _ *auth.Principal) {
	res, err := a.Service.SendReminders(r.Context())
	respond(w, r, http.StatusOK, res, err)
}

// runCleanup is S6: expired invitations and memberships on demand.
func (a *API) runCleanup(w http.ResponseWriter, r *http.Request, _ *auth.Principal) {
	res, err := a.Service.Cleanup(r.Context())
	respond(w, r, http.StatusOK, res, err)
}
