package httpapi

import (
	"net/http"
	"strconv"
	"strings"

	"github.com/edu-invite/invite/shared/domain"
)

// Routes of OpenConext-Invite that lean on systems this service does not
// have (Manage's identity providers, Microsoft Entra B2B, a CRM
// application configuration) or on a browser session where only API tokens
// call. Each gives the answer its users can act on, as the README's
// decisions describe; .ci/route-decisions.txt lists them.

func (a *API) eduIDIdentityProvider(w http.ResponseWriter, r *http.Request) {
	res, err := a.Service.EduIDIdentityProvider(callerOf(r))
	respond(w, r, http.StatusOK, res, err)
}

func (a *API) organizationGUIDValidation(w http.ResponseWriter, r *http.Request) {
	res, err := a.Service.OrganizationGUIDValidation(callerOf(r), r.PathValue("organizationGUID"))
	respond(w, r, http.StatusOK, res, err)
}

func (a *API) crmSyncReport(w http.ResponseWriter, r *http.Request) {
	res, err := a.Service.CRMSyncReport(r.Context(), callerOf(r))
	respond(w, r, http.StatusOK, res, err)
}

// msAcceptReturn is where Microsoft Entra sends a guest's browser after a
// B2B invitation was redeemed. The reference then updates the guest at
// Entra and sends the browser to its welcome page; this service provisions
// no Entra tenants (SCIM only), so there is nothing to update and the
// browser goes to the welcome page, as the reference does for a user with
// no Entra account. The ids are checked for form only: the answer is the
// same for every user, so the public path tells nobody who exists.
func (a *API) msAcceptReturn(w http.ResponseWriter, r *http.Request) {
	if _, err := strconv.ParseInt(r.PathValue("userId"), 10, 64); err != nil || strings.TrimSpace(r.PathValue("manageId")) == "" {
		writeError(w, r, domain.Invalidf("userId must be a number and manageId given"))
		return
	}
	home := strings.TrimRight(a.Service.PublicBaseURL, "/") + "/"
	http.Redirect(w, r, home, http.StatusFound)
}

// deprovisionDryRun is the reference's DELETE
// /api/external/v1/deprovision/{id}/dry-run: the erasure's report, nothing
// erased, the same as DELETE /api/external/v1/deprovision/{id}?dry-run=true.
func (a *API) deprovisionDryRun(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	q.Set("dry-run", "true")
	r.URL.RawQuery = q.Encode()
	a.deprovision(true)(w, r)
}

// browserSessionOnly answers the reference's session routes on the
// /api/external/v1 prefix (users/login, users/logout, users/error). That
// prefix is for API tokens, which have no browser session to sign in, out
// or report from, so every caller gets 403 naming the /api/v1 route the
// pages serve on the browser session, instead of a bare 404.
func browserSessionOnly(w http.ResponseWriter, r *http.Request) {
	v1 := "/api/v1/" + strings.TrimPrefix(r.URL.Path, "/api/external/v1/")
	writeError(w, r, domain.Forbiddenf("%s %s needs a browser session, which API tokens do not have: a browser uses %s %s",
		r.Method, r.URL.Path, r.Method, v1))
}
