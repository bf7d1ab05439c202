package httpapi

import (
	"net/http"
	"slices"
)

// routes registers a group's handlers on its mux and remembers each
// pattern, so that the OpenAPI document can be checked against what is
// really served (no route undocumented, no documented route missing).
type routes struct {
	mux      *http.ServeMux
	patterns []string
}

// HandleFunc registers a "METHOD /path" pattern.
func (rt *routes) HandleFunc(pattern string, h http.HandlerFunc) {
	rt.mux.HandleFunc(pattern, h)
	rt.patterns = append(rt.patterns, pattern)
}

// Handle registers a "METHOD /path" pattern.
func (rt *routes) Handle(pattern string, h http.Handler) {
	rt.mux.Handle(pattern, h)
	rt.patterns = append(rt.patterns, pattern)
}

// register adds the routes of one resource group.
func (a *API) register(g Group, rt *routes) {
	switch g {
	case GroupUsers:
		a.userRoutes(rt)
		a.userRoleRoutes(rt)
		a.consoleUserRoutes(rt)
		a.platformRoutes(rt)
	case GroupRoles:
		a.roleRoutes(rt)
	case GroupInvitations:
		a.invitationRoutes(rt)
	case GroupCRM:
		a.crmRoutes(rt)
	case GroupTokens:
		a.tokenRoutes(rt)
		a.auditRoutes(rt)
	case GroupSystem:
		a.systemRoutes(rt)
		a.validationRoutes(rt)
	}
}

// Routes lists the "METHOD /path" patterns a group serves, sorted.
func (a *API) Routes(g Group) []string {
	rt := &routes{mux: http.NewServeMux()}
	a.register(g, rt)
	slices.Sort(rt.patterns)
	return rt.patterns
}
