// Package httpapi is the service's REST API: one http.Handler per resource
// group (users, roles, invitations, CRM, tokens and audit, system), each
// deployed as its own Lambda behind API Gateway and mounted together on one
// server by the local stack.
//
// Start with routes.go: every route, by group, in one table (routeTable),
// beside the path prefixes API Gateway sends to each group. The operation
// codes of the specification and the reference (U8, R5, I1, ...) are keyed
// to route, handler, service method and test in OPERATIONS.md.
package httpapi

import (
	"net/http"
	"strings"

	"github.com/edu-invite/invite/shared/auth"
	"github.com/edu-invite/invite/shared/middleware"
	"github.com/edu-invite/invite/shared/service"
)

// API holds what the handlers need.
type API struct {
	Service       *service.Service
	Authenticator *auth.Authenticator
	// Throttle slows and refuses repeated authentication failures; nil
	// turns it off (tests that are not about it).
	Throttle *FailureThrottle
	// Origin refuses requests that did not come through CloudFront (the
	// origin secret); nil when none is configured.
	Origin *middleware.OriginCheck
}

// Handler returns the handler of one resource group.
func (a *API) Handler(g Group) http.Handler {
	mux := a.mux(g)
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		if allow := allowedMethods(mux, r); len(allow) > 0 {
			w.Header().Set("Allow", strings.Join(allow, ", "))
			writeError(w, r, &statusError{status: http.StatusMethodNotAllowed, exception: "HttpRequestMethodNotSupportedException",
				message: r.Method + " is not allowed on " + r.URL.Path + "; allowed: " + strings.Join(allow, ", ")})
			return
		}
		notFound(w, r)
	})
	return a.middleware(mux)
}

// allowedMethods lists the methods a group serves on a request's path. The
// mux would answer 405 itself, were it not for the catch-all that gives an
// unknown path the spec's error body.
func allowedMethods(mux *http.ServeMux, r *http.Request) []string {
	var allow []string
	for _, m := range []string{http.MethodGet, http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete} {
		if m == r.Method {
			continue
		}
		probe := r.Clone(r.Context())
		probe.Method = m
		if _, pattern := mux.Handler(probe); pattern != "" && pattern != "/" {
			allow = append(allow, m)
		}
	}
	return allow
}

// Local mounts every group on one handler by prefix, as API Gateway does.
func (a *API) Local() http.Handler {
	mux := http.NewServeMux()
	for g, prefixes := range Prefixes {
		h := a.Handler(g)
		for _, p := range prefixes {
			mux.Handle(p, h)
			mux.Handle(p+"/", h)
		}
	}
	mux.Handle("/", a.middleware(http.HandlerFunc(notFound)))
	return mux
}

func health(w http.ResponseWriter, _ *http.Request) {
	writeJSON(w, http.StatusOK, map[string]string{"status": "UP"})
}

func notFound(w http.ResponseWriter, r *http.Request) {
	writeErrorStatus(w, r, http.StatusNotFound, "NotFoundException", "no such operation: "+r.Method+" "+r.URL.Path)
}
