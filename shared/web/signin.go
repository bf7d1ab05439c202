package web

import (
	"net/http"
	"net/url"
	"regexp"
	"strings"

	"github.com/edu-invite/invite/shared/domain"
)

// safeACR bounds what a sign-in link may ask the IdP for.
var safeACR = regexp.MustCompile(`^[A-Za-z0-9:/._\-]{1,200}$`)

// signInURL is the address of a sign-in that returns to next, asking for
// acr when set.
func signInURL(next, acr string) string {
	q := url.Values{"next": {localPath(next)}}
	if acr != "" {
		q.Set("acr", acr)
	}
	return "/login?" + q.Encode()
}

// localPath is next when it is a path on this site, else "/": return
// addresses never lead elsewhere (no open redirect). "//host" and "/\host"
// are other sites to a browser, so they are refused too.
func localPath(next string) string {
	if next == "" || next[0] != '/' || strings.HasPrefix(next, "//") || strings.HasPrefix(next, "/\\") {
		return "/"
	}
	u, err := url.Parse(next)
	if err != nil || u.Scheme != "" || u.Host != "" || u.User != nil || strings.ContainsAny(next, "\r\n\t") {
		return "/"
	}
	return next
}

// login starts the authorization code flow: a cookie holds the state, the
// nonce and the PKCE verifier (pending_signin.go), and the browser goes to
// the IdP. The current session, if any, stays until the sign-in completes.
// switch=1 asks the IdP for a fresh login (another account).
func (p *Pages) login(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	next := localPath(q.Get("next"))
	if p.cfg.SignIn == nil {
		p.problem(w, r, http.StatusServiceUnavailable, "", stateSignInFailed, next)
		return
	}
	acr := q.Get("acr")
	if !safeACR.MatchString(acr) {
		acr = ""
	}
	login := &domain.PendingLogin{State: randomToken(), Nonce: randomToken(), CodeVerifier: randomToken() + randomToken()[:11], Next: next, ACR: acr}
	to, err := p.cfg.SignIn.AuthCodeURL(r.Context(), login.State, login.Nonce, login.CodeVerifier, acr, q.Get("switch") == "1")
	if err != nil {
		p.serverError(w, r, err)
		return
	}
	p.startSignIn(w, r, *login)
	http.Redirect(w, r, to, http.StatusSeeOther)
}

// callback completes the sign-in. The state must be one this browser
// started (else the answer belongs to another browser or was forged); the
// code is redeemed with the PKCE verifier and the ID token must carry the
// nonce. The pending sign-in is used up whatever the outcome, so neither a
// state nor a code works twice.
func (p *Pages) callback(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	login, ok := p.takeSignIn(w, r, q.Get("state"))
	if !ok {
		p.cfg.Logger.WarnContext(r.Context(), "sign-in refused", "reason", "no sign-in of this browser has this state")
		p.problem(w, r, http.StatusBadRequest, "", stateSignInFailed, "/")
		return
	}
	lang := p.languageOf(r, login.Next)
	if e := q.Get("error"); e != "" || q.Get("code") == "" {
		p.cfg.Logger.InfoContext(r.Context(), "sign-in not completed", "reason", firstNonEmpty(safeWord(e), "no code"))
		p.problem(w, r, http.StatusUnauthorized, lang, stateSignInFailed, login.Next)
		return
	}
	person, idToken, err := p.cfg.SignIn.Exchange(r.Context(), q.Get("code"), login.CodeVerifier, login.Nonce)
	if err != nil {
		if domain.KindOf(err) == domain.KindUnavailable {
			p.serverError(w, r, err)
			return
		}
		p.cfg.Logger.WarnContext(r.Context(), "sign-in refused", "error", err)
		p.problem(w, r, http.StatusUnauthorized, lang, stateSignInFailed, login.Next)
		return
	}
	// The login sync of the API (changed attributes reach the SPs) runs
	// here too: building the principal observes the login.
	pr, err := p.cfg.Authenticator.PersonPrincipal(r.Context(), person)
	if err != nil {
		p.serverError(w, r, err)
		return
	}
	signedIn := signedInPerson(*pr.Person) // the claims as normalized for the principal
	if err := p.newSession(w, r, domain.Session{Person: &signedIn, IDToken: idToken}); err != nil {
		p.serverError(w, r, err)
		return
	}
	http.Redirect(w, r, localPath(login.Next), http.StatusSeeOther)
}

// logout ends the session here and, when the IdP has an
// end_session_endpoint, there too.
func (p *Pages) logout(w http.ResponseWriter, r *http.Request) {
	var idToken string
	if s := visitOf(r).session; s != nil {
		idToken = s.IDToken
	}
	p.endSession(w, r)
	if p.cfg.SignIn != nil {
		if to := p.cfg.SignIn.EndSessionURL(r.Context(), idToken, strings.TrimRight(p.cfg.BaseURL, "/")+"/"); to != "" {
			http.Redirect(w, r, to, http.StatusSeeOther)
			return
		}
	}
	http.Redirect(w, r, "/", http.StatusSeeOther)
}

// safeWord keeps an IdP's error code loggable: a short token, nothing else.
func safeWord(s string) string {
	if len(s) > 40 || strings.ContainsFunc(s, func(r rune) bool { return !(r == '_' || r >= 'a' && r <= 'z') }) {
		return "other"
	}
	return s
}

// languageOf is the language of a failed sign-in's page: that of the
// invitation the person came from when they came from one, else the
// visit's.
func (p *Pages) languageOf(r *http.Request, next string) string {
	v := visitOf(r)
	u, err := url.Parse(next)
	if err != nil || u.Path != "/invitation/accept" || v.chosenLang != "" {
		return v.language("")
	}
	link, err := p.cfg.Service.InvitationByLink(r.Context(), u.Query().Get("hash"))
	if err != nil {
		return v.language("")
	}
	return v.language(string(link.Invitation.Language))
}
