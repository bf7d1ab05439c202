package web

import (
	"fmt"
	"net/http"

	"github.com/edu-invite/invite/shared/i18n"
)

// stateKind names a page that explains why the person cannot go on, and
// what they can do.
type stateKind string

const (
	stateUnknown      stateKind = "unknown"
	stateExpired      stateKind = "expired"
	stateAccepted     stateKind = "accepted"
	stateMismatch     stateKind = "mismatch"
	stateFederated    stateKind = "fedonly"
	stateStepUp       stateKind = "stepup"
	stateSignInFailed stateKind = "signinFailed"
	stateError        stateKind = "error"
	stateNotFound     stateKind = "notFound"
	stateForbidden    stateKind = "forbidden"    // a signed-in person's rights do not allow it
	stateCrossOrigin  stateKind = "crossOrigin"  // another site posted: nothing was changed
	stateNoConsole    stateKind = "noConsole"    // a person with no rights in the console opened it
	stateSessionEnded stateKind = "sessionEnded" // a console form posted without a session
)

// statePage is one such page: a heading, what happened in plain words, and
// the ways on.
type statePage struct {
	basePage
	State   stateKind
	Body    string
	Actions []action
}

// action is a link the person can follow; Primary is the one to take.
type action struct {
	Label, Href string
	Primary     bool
}

// problem renders a state page whose text needs no details; next is where
// "try again" leads. lang "" means the visit's language.
func (p *Pages) problem(w http.ResponseWriter, r *http.Request, status int, lang string, kind stateKind, next string) {
	if lang == "" {
		lang = visitOf(r).language("")
	}
	page := statePage{basePage: p.base(r, lang, "state."+string(kind)+".title"), State: kind,
		Body: i18n.T(lang, "state."+string(kind)+".body")}
	home := action{Label: i18n.T(lang, "state.home"), Href: "/"}
	switch kind {
	case stateSignInFailed:
		page.Actions = []action{{Label: i18n.T(lang, "state.signinFailed.action"), Href: signInURL(next, ""), Primary: true}, home}
	case stateAccepted:
		page.Actions = []action{{Label: i18n.T(lang, "state.accepted.action"), Href: "/", Primary: true}}
	case stateNoConsole:
		page.Actions = []action{{Label: i18n.T(lang, "state.accepted.action"), Href: "/", Primary: true}}
	case stateForbidden:
		page.Actions = []action{{Label: i18n.T(lang, "state.forbidden.action"), Href: "/console", Primary: true}, home}
	case stateSessionEnded:
		page.Actions = []action{{Label: i18n.T(lang, "state.sessionEnded.action"), Href: signInURL(next, ""), Primary: true}, home}
	default:
		page.Actions = []action{home}
	}
	p.render(w, r, status, "state", page)
}

func (p *Pages) notFound(w http.ResponseWriter, r *http.Request) {
	p.problem(w, r, http.StatusNotFound, "", stateNotFound, "/")
}

// crossOrigin answers a state-changing request from another site, which
// http.CrossOriginProtection refused before any handler ran.
func (p *Pages) crossOrigin(w http.ResponseWriter, r *http.Request) {
	p.cfg.Logger.WarnContext(r.Context(), "cross-origin request refused", "method", r.Method, "path", r.URL.Path)
	p.problem(w, r, http.StatusForbidden, "", stateCrossOrigin, "/")
}

// serverError logs err (never the request's query: it may carry an
// invitation secret) and shows the error page.
func (p *Pages) serverError(w http.ResponseWriter, r *http.Request, err error) {
	p.cfg.Logger.ErrorContext(r.Context(), "page failed", "path", r.URL.Path, "error", err)
	status := http.StatusInternalServerError
	p.problem(w, r, status, "", stateError, "/")
}

// internalError answers a panic (middleware.Recover).
func (p *Pages) internalError(w http.ResponseWriter, r *http.Request, cause any) {
	p.cfg.Logger.ErrorContext(r.Context(), "panic serving page", "path", r.URL.Path, "cause", fmt.Sprint(cause))
	p.problem(w, r, http.StatusInternalServerError, "", stateError, "/")
}
