// Package httpapi is the service's REST API: one http.Handler per resource
// group (users, roles, invitations, CRM, tokens and audit, system), each
// deployed as its own Lambda behind API Gateway and mounted together on one
// server by the local stack.
package httpapi

import (
	"net/http"
	"strings"

	"github.com/edu-invite/invite/shared/auth"
	"github.com/edu-invite/invite/shared/service"
)

// API holds what the handlers need.
type API struct {
	Service       *service.Service
	Authenticator *auth.Authenticator
	// Throttle slows and refuses repeated authentication failures; nil
	// turns it off (tests that are not about it).
	Throttle *FailureThrottle
}

// Group names a resource group, i.e. one API Lambda.
type Group string

const (
	GroupUsers       Group = "users"
	GroupRoles       Group = "roles"
	GroupInvitations Group = "invitations"
	GroupCRM         Group = "crm"
	GroupTokens      Group = "tokens"
	GroupSystem      Group = "system"
)

// Prefixes are the path prefixes API Gateway routes to each group's Lambda
// (the CDK stack declares the same routes).
var Prefixes = map[Group][]string{
	GroupUsers: {"/api/v1/users", "/api/v1/user_roles", "/api/external/v1/user_roles", "/api/external/v1/internal/invite/user_roles",
		"/api/external/v1/voot", "/api/external/v1/aa", "/api/external/v1/deprovision"},
	GroupRoles:       {"/api/v1/roles", "/api/internal/roles", "/api/external/v1/roles", "/api/external/v1/internal/invite/roles"},
	GroupInvitations: {"/api/v1/invitations", "/api/internal/invitations", "/api/external/v1/invitations", "/api/external/v1/internal/invite/invitations"},
	GroupCRM:         {"/crm", "/api/profile", "/api/external/v1/invite/crm"},
	GroupTokens:      {"/api/v1/tokens", "/api/v1/user_roles_audit"},
	GroupSystem:      {"/api/v1/system", "/api/v1/manage", "/api/docs", "/health", "/api/v1/validations", "/api/external/v1/validations"},
}

// Handler returns the handler of one resource group.
func (a *API) Handler(g Group) http.Handler {
	mux := http.NewServeMux()
	a.register(g, &routes{mux: mux})
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
