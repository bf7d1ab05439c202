package httpapi

import (
	"net/http"

	"github.com/edu-invite/invite/shared/auth"
	"github.com/edu-invite/invite/shared/domain"
)

// requireCRMCaller answers 401 for anonymous callers and 403 for callers
// that are not CRM systems, before the body is read.
func requireCRMCaller(w http.ResponseWriter, r *http.Request, allowed func(*auth.Principal) bool) (*auth.Principal, bool) {
	p, ok := requireCaller(w, r)
	if !ok {
		return nil, false
	}
	if !allowed(p) {
		writeError(w, r, domain.Forbiddenf("%s is not open to this caller: it is for CRM systems (and, for profile search, machine callers with the crm scope)", r.URL.Path))
		return nil, false
	}
	return p, true
}

func isCRM(p *auth.Principal) bool { return p.IsCRM() }

// respondCRMString answers as the reference's CRM operations do: a bare
// word ("created", "deleted", ...), not JSON; errors get the usual body.
func respondCRMString(w http.ResponseWriter, r *http.Request, s string, err error) {
	if err != nil {
		writeError(w, r, err)
		return
	}
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write([]byte(s))
}

// crmCallerAndBody is callerAndBody for the CRM operations: 401, then 403
// for callers that are not CRM systems, then 400 for a bad body.
func crmCallerAndBody[T any](w http.ResponseWriter, r *http.Request) (*auth.Principal, T, bool) {
	var req T
	p, ok := requireCRMCaller(w, r, isCRM)
	if !ok || !decode(w, r, &req) {
		return nil, req, false
	}
	return p, req, true
}

// crmCallerAndProfile reads the body of a CRM profile change or deletion, which both need the
// organisation.
func crmCallerAndProfile(w http.ResponseWriter, r *http.Request) (*auth.Principal, crmProfileRequest, bool) {
	p, req, ok := crmCallerAndBody[crmProfileRequest](w, r)
	if !ok {
		return nil, req, false
	}
	if req.Organisation == nil {
		writeError(w, r, domain.Invalidf("organisation is required"))
		return nil, req, false
	}
	return p, req, true
}
