package httpapi

import (
	"net/http"
	"time"

	"github.com/edu-invite/invite/shared/auth"
	"github.com/edu-invite/invite/shared/domain"
)

// expiringUserRoles answers the memberships ending within 30 days.
func (a *API) expiringUserRoles(w http.ResponseWriter, r *http.Request, _ *auth.Principal) {
	urs, err := a.Service.ExpiringUserRoles(r.Context(), 30*24*time.Hour)
	respond(w, r, http.StatusOK, mapSlice(urs, func(ur domain.UserRole) UserRoleJSON { return userRoleJSON(ur, nil) }), err)
}

// runReminders runs the reminder job on demand, answering what was sent.
func (a *API) runReminders(w http.ResponseWriter, r *http.Request, _ *auth.Principal) {
	res, err := a.Service.SendReminders(r.Context())
	respond(w, r, http.StatusOK, res, err)
}

// runCleanup removes expired invitations and memberships on demand.
func (a *API) runCleanup(w http.ResponseWriter, r *http.Request, _ *auth.Principal) {
	res, err := a.Service.Cleanup(r.Context())
	respond(w, r, http.StatusOK, res, err)
}
