package web

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"net/http"
	"strings"
	"time"

	"github.com/edu-invite/invite/shared/auth"
	"github.com/edu-invite/invite/shared/domain"
	"github.com/edu-invite/invite/shared/i18n"
)

// Cookies. The session cookie holds only a random id; "__Host-" makes the
// browser refuse it unless it is Secure, host-only and for path "/".
const (
	sessionCookie  = "__Host-invite-session"
	languageCookie = "__Host-invite-lang"
)

// touchInterval is how stale a session's LastSeen may get before a request
// writes it again, so that the idle timeout slides without a write per
// request; a tenth of the idle timeout when that is shorter, so that a short
// timeout slides too (a session used at least every 90 % of it stays).
const touchInterval = 5 * time.Minute

func (p *Pages) touchAfter() time.Duration { return min(touchInterval, p.cfg.IdleTimeout/10) }

// expiresAt is when a session last used at lastSeen ends: after the idle
// timeout, and never later than its absolute lifetime after its sign-in.
func (p *Pages) expiresAt(created, lastSeen time.Time) time.Time {
	idle, absolute := lastSeen.Add(p.cfg.IdleTimeout), created.Add(p.cfg.MaxLifetime)
	if absolute.Before(idle) {
		return absolute
	}
	return idle
}

// visit is what the middleware learned about the request.
type visit struct {
	session   *domain.Session // nil without a valid session
	principal *auth.Principal // nil when nobody is signed in
	// chosenLang is the language the person chose with the switch, now or
	// earlier (cookie); "" when they never did.
	chosenLang     string
	acceptLanguage string
}

type visitKey struct{}

func visitOf(r *http.Request) *visit {
	if v, ok := r.Context().Value(visitKey{}).(*visit); ok {
		return v
	}
	return &visit{}
}

// withVisit loads the session and the signed-in person's principal (the
// same principal the API builds for a bearer token), and the language
// choice.
func (p *Pages) withVisit(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasPrefix(r.URL.Path, "/static/") {
			next.ServeHTTP(w, r) // no session read for a style sheet
			return
		}
		v := &visit{acceptLanguage: i18n.FromAcceptLanguage(r.Header.Get("Accept-Language"))}
		if l := i18n.Supported(r.URL.Query().Get("lang")); l != "" {
			v.chosenLang = l
			http.SetCookie(w, &http.Cookie{Name: languageCookie, Value: l, Path: "/", Secure: true, HttpOnly: true,
				SameSite: http.SameSiteLaxMode, MaxAge: 365 * 24 * 3600})
		} else if c, err := r.Cookie(languageCookie); err == nil {
			v.chosenLang = i18n.Supported(c.Value)
		}
		if sess, ok := p.loadSession(r); ok {
			v.session = &sess
			if sess.Person != nil {
				pr, err := p.cfg.Authenticator.PersonPrincipal(r.Context(), personOf(*sess.Person))
				if err != nil {
					p.serverError(w, r, err)
					return
				}
				v.principal = pr
			}
		}
		ctx := context.WithValue(r.Context(), visitKey{}, v)
		if v.principal != nil {
			ctx = auth.WithPrincipal(ctx, v.principal)
		}
		next.ServeHTTP(w, r.WithContext(ctx))
	})
}

// signedIn returns the signed-in person's principal, or sends an anonymous
// visitor to sign in and back to this page (ok false). Pages for people
// only start with it.
func (p *Pages) signedIn(w http.ResponseWriter, r *http.Request) (*auth.Principal, bool) {
	if pr := visitOf(r).principal; pr != nil && pr.Person != nil {
		return pr, true
	}
	http.Redirect(w, r, signInURL(r.URL.RequestURI(), ""), http.StatusSeeOther)
	return nil, false
}

// language is the page's language: the person's own choice, else the
// invitation's (pass "" where there is none), else the browser's.
func (v *visit) language(invitation string) string {
	return firstNonEmpty(v.chosenLang, i18n.Supported(invitation), v.acceptLanguage)
}

// loadSession reads the cookie's session. An unknown or expired session is
// no session; an expired one is deleted. DynamoDB's TTL removes items late
// (DynamoDB Local never does), so the expiry is checked here.
func (p *Pages) loadSession(r *http.Request) (domain.Session, bool) {
	c, err := r.Cookie(sessionCookie)
	if err != nil || c.Value == "" || len(c.Value) > 100 {
		return domain.Session{}, false
	}
	digest := digestOf(c.Value)
	sess, err := p.cfg.Sessions.GetSession(r.Context(), digest)
	if err != nil {
		if !domain.IsNotFound(err) {
			p.cfg.Logger.ErrorContext(r.Context(), "session not read", "error", err)
		}
		return domain.Session{}, false
	}
	now := p.now()
	if sess.Expired(now) {
		_ = p.cfg.Sessions.DeleteSession(r.Context(), digest)
		return domain.Session{}, false
	}
	if now.Sub(sess.LastSeen) >= p.touchAfter() {
		sess.LastSeen, sess.ExpiresAt = now, p.expiresAt(sess.CreatedAt, now)
		if err := p.cfg.Sessions.PutSession(r.Context(), sess); err != nil {
			p.cfg.Logger.WarnContext(r.Context(), "session not extended", "error", err)
		}
	}
	return sess, true
}

// newSession stores a fresh session under a new random id and sets its
// cookie, replacing the visit's session. A new id at every sign-in means an
// id seen before the sign-in is worthless after it (no session fixation).
// The absolute lifetime counts from here.
func (p *Pages) newSession(w http.ResponseWriter, r *http.Request, sess domain.Session) error {
	id := randomToken()
	now := p.now()
	sess.IDDigest, sess.CreatedAt, sess.LastSeen, sess.ExpiresAt = digestOf(id), now, now, p.expiresAt(now, now)
	if err := p.cfg.Sessions.PutSession(r.Context(), sess); err != nil {
		return err
	}
	if old := visitOf(r).session; old != nil {
		_ = p.cfg.Sessions.DeleteSession(r.Context(), old.IDDigest)
	}
	http.SetCookie(w, &http.Cookie{Name: sessionCookie, Value: id, Path: "/", Secure: true, HttpOnly: true, SameSite: http.SameSiteLaxMode})
	return nil
}

// endSession deletes the session and its cookie.
func (p *Pages) endSession(w http.ResponseWriter, r *http.Request) {
	if s := visitOf(r).session; s != nil {
		if err := p.cfg.Sessions.DeleteSession(r.Context(), s.IDDigest); err != nil {
			p.cfg.Logger.ErrorContext(r.Context(), "session not deleted", "error", err)
		}
	}
	http.SetCookie(w, &http.Cookie{Name: sessionCookie, Value: "", Path: "/", Secure: true, HttpOnly: true, SameSite: http.SameSiteLaxMode, MaxAge: -1})
}

func digestOf(id string) string {
	sum := sha256.Sum256([]byte(id))
	return hex.EncodeToString(sum[:])
}

// randomToken is 256 random bits, URL-safe.
func randomToken() string {
	var b [32]byte
	_, _ = rand.Read(b[:])
	return base64.RawURLEncoding.EncodeToString(b[:])
}

func personOf(s domain.SignedInPerson) auth.Person {
	return auth.Person{Sub: s.Sub, EduPersonPrincipalName: s.EduPersonPrincipalName, SchacHomeOrganization: s.SchacHomeOrganization,
		Email: s.Email, GivenName: s.GivenName, FamilyName: s.FamilyName, Name: s.Name, SubjectID: s.SubjectID, UID: s.UID,
		FedID: s.FedID, ACR: s.ACR}
}

func signedInPerson(a auth.Person) domain.SignedInPerson {
	return domain.SignedInPerson{Sub: a.Sub, EduPersonPrincipalName: a.EduPersonPrincipalName, SchacHomeOrganization: a.SchacHomeOrganization,
		Email: a.Email, GivenName: a.GivenName, FamilyName: a.FamilyName, Name: a.Name, SubjectID: a.SubjectID, UID: a.UID,
		FedID: a.FedID, ACR: a.ACR}
}
