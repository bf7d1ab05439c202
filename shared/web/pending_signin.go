package web

import (
	"crypto/subtle"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"time"

	"github.com/edu-invite/invite/shared/domain"
)

// A sign-in under way (between GET /login and the IdP's callback) is kept
// in a cookie of its own, not in the session: starting one neither ends
// the browser's current session (a link from another site to /login must
// not sign anyone out) nor writes an item for every anonymous /login. The
// cookie holds the browser's own one-time values (state, nonce, PKCE
// verifier) and the return path; "__Host-", Secure and HttpOnly keep it in
// this browser and away from scripts, and nothing in it is trusted beyond
// matching what the IdP sends back: the state must match the callback's,
// the code is redeemed with the verifier, the ID token must carry the
// nonce, and the return path is checked again (localPath). So it needs no
// server key.
const pendingSignInCookie = "__Host-invite-signin"

// Bounds of the pending sign-ins a browser keeps: a few tabs may sign in at
// once; an old one is dropped.
const (
	maxPendingSignIns = 3
	pendingSignInFor  = 10 * time.Minute
)

// pendingSignIn is one sign-in under way, as the cookie keeps it.
type pendingSignIn struct {
	domain.PendingLogin
	Started int64 `json:"t"`
}

// pendingSignIns reads the cookie's sign-ins that have not timed out.
func (p *Pages) pendingSignIns(r *http.Request) []pendingSignIn {
	c, err := r.Cookie(pendingSignInCookie)
	if err != nil || len(c.Value) > 3800 {
		return nil
	}
	raw, err := base64.RawURLEncoding.DecodeString(c.Value)
	if err != nil {
		return nil
	}
	var all []pendingSignIn
	if json.Unmarshal(raw, &all) != nil {
		return nil
	}
	now := p.now()
	var live []pendingSignIn
	for _, s := range all {
		if started := time.Unix(s.Started, 0); now.Sub(started) < pendingSignInFor && !started.After(now) && s.State != "" {
			live = append(live, s)
		}
	}
	return live
}

// setPendingSignIns writes the cookie, or deletes it when none is left.
func (p *Pages) setPendingSignIns(w http.ResponseWriter, all []pendingSignIn) {
	c := &http.Cookie{Name: pendingSignInCookie, Path: "/", Secure: true, HttpOnly: true, SameSite: http.SameSiteLaxMode}
	if len(all) == 0 {
		c.MaxAge = -1
	} else {
		raw, _ := json.Marshal(all)
		c.Value, c.MaxAge = base64.RawURLEncoding.EncodeToString(raw), int(pendingSignInFor.Seconds())
	}
	http.SetCookie(w, c)
}

// startSignIn remembers a new sign-in, newest first.
func (p *Pages) startSignIn(w http.ResponseWriter, r *http.Request, login domain.PendingLogin) {
	all := append([]pendingSignIn{{PendingLogin: login, Started: p.now().Unix()}}, p.pendingSignIns(r)...)
	p.setPendingSignIns(w, all[:min(len(all), maxPendingSignIns)])
}

// takeSignIn returns the sign-in the callback's state belongs to and
// forgets it, so that neither its state nor its code works twice.
func (p *Pages) takeSignIn(w http.ResponseWriter, r *http.Request, state string) (domain.PendingLogin, bool) {
	all := p.pendingSignIns(r)
	for i, s := range all {
		if subtle.ConstantTimeCompare([]byte(state), []byte(s.State)) == 1 {
			p.setPendingSignIns(w, append(all[:i:i], all[i+1:]...))
			return s.PendingLogin, true
		}
	}
	return domain.PendingLogin{}, false
}
