package httpapi

import (
	"net/http"
	"strings"

	"github.com/edu-invite/invite/shared/auth"
)

// userSectionRoutes serves two-segment paths under /api/v1/users
// ("/api/v1/users/<section>/{param}"). They cannot be registered one by
// one: "GET /api/v1/users/other/{id}" and the user-roles group's
// "GET /api/v1/users/{id}/provisioning" both match
// "/api/v1/users/other/provisioning" and neither is more specific, which
// net/http refuses. So one less specific pattern is registered on the mux
// and dispatches by section (unknown sections are 404); the documented
// patterns are recorded for the OpenAPI check.
func (a *API) userSectionRoutes(rt *routes, handlers map[string]http.HandlerFunc) {
	type target struct {
		param string
		h     http.HandlerFunc
	}
	bySection := map[string]target{}
	for pattern, h := range handlers {
		rt.patterns = append(rt.patterns, pattern)
		_, path, _ := strings.Cut(pattern, " ")
		rest := strings.TrimPrefix(path, "/api/v1/users/")
		section, param, _ := strings.Cut(rest, "/")
		bySection[section] = target{param: strings.Trim(param, "{}"), h: h}
	}
	rt.mux.HandleFunc("GET /api/v1/users/{section}/{param}", func(w http.ResponseWriter, r *http.Request) {
		t, ok := bySection[r.PathValue("section")]
		if !ok {
			notFound(w, r)
			return
		}
		r.SetPathValue(t.param, r.PathValue("param"))
		t.h(w, r)
	})
}

// callerOf is the caller or nil for anonymous requests.
func callerOf(r *http.Request) *auth.Principal { return auth.FromContext(r.Context()) }
