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
