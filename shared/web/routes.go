package web

import (
	"net/http"
	"strings"
)

type route struct {
	pattern string
	handler http.Handler
}

// routes is every page and form action, one line each. Pages are GET; each
// form posts to its own small handler. Cross-origin POSTs never reach them
// (Handler).
func (p *Pages) routes() []route {
	return append([]route{
		{"GET /{$}", http.HandlerFunc(p.home)},                        // my access, or the anonymous landing page
		{"GET /invitation/accept", http.HandlerFunc(p.invitation)},    // the link in the e-mail: every state of an invitation
		{"POST /invitation/accept", http.HandlerFunc(p.accept)},       // the Accept button
		{"GET /my/welcome", http.HandlerFunc(p.welcome)},              // "you now have access to …", until provisioned
		{"GET /login", http.HandlerFunc(p.login)},                     // starts the OIDC code flow
		{"GET /login/callback", http.HandlerFunc(p.callback)},         // the IdP's answer (a GET, as OIDC sends it)
		{"POST /logout", http.HandlerFunc(p.logout)},                  // ends the session, then the IdP's
		{"GET /static/", http.StripPrefix("/static/", staticFiles())}, // CSS and the small script, embedded
		// The reference client's session routes, under /api/v1 (session_api.go).
		{"GET /api/v1/users/login", http.HandlerFunc(p.apiLogin)},   // sign in, then back to a local address
		{"GET /api/v1/users/logout", http.HandlerFunc(p.apiLogout)}, // ends the session; JSON
		{"GET /api/v1/csrf", http.HandlerFunc(p.apiCSRF)},           // a fixed, unchecked token
		{"POST /api/v1/users/error", http.HandlerFunc(p.apiError)},  // a client's error report, logged without personal data
		{"GET /api/v1/disclaimer", http.HandlerFunc(p.apiDisclaimer)},
		// The IdP ends a person's sessions (OIDC Back-Channel Logout 1.0).
		{"POST /login/backchannel-logout", http.HandlerFunc(p.backchannelLogout)},
	}, p.consoleRoutes()...) // the console: console.go
}

// APIRoutes are the patterns of the routes under /api/ (the reference
// client's session routes), for the check that the API's document lists
// them.
func (p *Pages) APIRoutes() []string {
	var out []string
	for _, rt := range p.routes() {
		if _, path, _ := strings.Cut(rt.pattern, " "); strings.HasPrefix(path, "/api/") {
			out = append(out, rt.pattern)
		}
	}
	return out
}
