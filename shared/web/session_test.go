package web

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/edu-invite/invite/shared/auth"
	"github.com/edu-invite/invite/shared/domain"
	"github.com/edu-invite/invite/shared/dynamo/dynamotest"
	"github.com/edu-invite/invite/shared/testkit"
)

// fakeIdP signs in whoever it is told to: the code is the state it was
// given, and the nonce must come back as it was sent.
type fakeIdP struct {
	person auth.Person
	nonces map[string]string // by state
}

func (f *fakeIdP) AuthCodeURL(_ context.Context, state, nonce, _, _ string, _ bool) (string, error) {
	f.nonces[state] = nonce
	return "https://idp.example.org/authorize?state=" + url.QueryEscape(state), nil
}

func (f *fakeIdP) Exchange(_ context.Context, code, _, nonce string) (auth.Person, string, error) {
	if want, ok := f.nonces[code]; !ok || want != nonce {
		return auth.Person{}, "", domain.Unauthenticatedf("code or nonce not known")
	}
	delete(f.nonces, code)
	return f.person, "id-token", nil
}

func (f *fakeIdP) EndSessionURL(context.Context, string, string) string { return "" }

func (f *fakeIdP) VerifyLogoutToken(context.Context, string) (string, error) {
	return "", domain.Unauthenticatedf("no back-channel logout here")
}

// countingSessions counts the session items written.
type countingSessions struct {
	Sessions
	puts atomic.Int64
}

func (c *countingSessions) PutSession(ctx context.Context, s domain.Session) error {
	c.puts.Add(1)
	return c.Sessions.PutSession(ctx, s)
}

// sessionRig is the pages with a fake IdP, a clock a test moves and a
// browser that keeps cookies.
type sessionRig struct {
	t        *testing.T
	now      time.Time
	idp      *fakeIdP
	sessions *countingSessions
	handler  http.Handler
}

func newSessionRig(t *testing.T, idle, lifetime time.Duration) *sessionRig {
	rig := &sessionRig{t: t, now: time.Date(2026, 11, 24, 8, 0, 0, 0, time.UTC),
		idp: &fakeIdP{person: auth.Person{Sub: "urn:ann", Email: "ann@example.org", Name: "Ann"}, nonces: map[string]string{}}}
	clock := func() time.Time { return rig.now }
	svc, _ := testkit.NewService(t, clock)
	store := dynamotest.NewStore(t, clock)
	rig.sessions = &countingSessions{Sessions: store}
	pages, err := New(Config{Service: svc, Authenticator: &auth.Authenticator{Tokens: store, Users: store}, Sessions: rig.sessions,
		SignIn: rig.idp, BaseURL: "https://invite.example.org", IdleTimeout: idle, MaxLifetime: lifetime, Clock: clock})
	if err != nil {
		t.Fatal(err)
	}
	rig.handler = pages.Handler()
	return rig
}

// browser is one browser's cookies.
type browser map[string]string

// get sends GET path with the browser's cookies and keeps those it is sent.
func (rig *sessionRig) get(b browser, path string, header http.Header) *httptest.ResponseRecorder {
	rig.t.Helper()
	req := httptest.NewRequest(http.MethodGet, "https://invite.example.org"+path, nil)
	for k, vs := range header {
		req.Header[k] = vs
	}
	for name, value := range b {
		req.AddCookie(&http.Cookie{Name: name, Value: value})
	}
	rec := httptest.NewRecorder()
	rig.handler.ServeHTTP(rec, req)
	for _, c := range rec.Result().Cookies() {
		if c.MaxAge < 0 {
			delete(b, c.Name)
		} else {
			b[c.Name] = c.Value
		}
	}
	return rec
}

// startSignIn is GET /login; it returns the state the IdP was given.
func (rig *sessionRig) startSignIn(b browser, header http.Header) string {
	rig.t.Helper()
	rec := rig.get(b, "/login?next=/", header)
	loc, _ := url.Parse(rec.Header().Get("Location"))
	if rec.Code != http.StatusSeeOther || loc.Host != "idp.example.org" {
		rig.t.Fatalf("GET /login = %d to %s", rec.Code, loc)
	}
	return loc.Query().Get("state")
}

// finish is the IdP's callback with state.
func (rig *sessionRig) finish(b browser, state string) *httptest.ResponseRecorder {
	rig.t.Helper()
	return rig.get(b, "/login/callback?"+url.Values{"state": {state}, "code": {state}}.Encode(), nil)
}

func (rig *sessionRig) signIn(b browser) {
	rig.t.Helper()
	if rec := rig.finish(b, rig.startSignIn(b, nil)); rec.Code != http.StatusSeeOther || rec.Header().Get("Location") != "/" {
		rig.t.Fatalf("callback = %d to %s", rec.Code, rec.Header().Get("Location"))
	}
}

func (rig *sessionRig) signedIn(b browser) bool {
	rig.t.Helper()
	rec := rig.get(b, "/", nil)
	if rec.Code != http.StatusOK {
		rig.t.Fatalf("start page = %d", rec.Code)
	}
	return strings.Contains(rec.Body.String(), `action="/logout"`)
}

// TestStartingASignInKeepsTheSession: a GET /login, from another site or
// not, leaves the browser's session as it was (it ends only when the new
// sign-in completes) and writes no session item; anonymous ones neither.
func TestStartingASignInKeepsTheSession(t *testing.T) {
	rig := newSessionRig(t, 0, 0)
	b := browser{}
	rig.signIn(b)
	session := b[sessionCookie]
	writes := rig.sessions.puts.Load()
	for _, h := range []http.Header{{"Sec-Fetch-Site": {"cross-site"}}, nil} {
		rig.startSignIn(b, h)
		if b[sessionCookie] != session || !rig.signedIn(b) {
			t.Fatalf("a sign-in started (%v) ended the session", h)
		}
	}
	for range 20 {
		rig.startSignIn(browser{}, nil)
	}
	if n := rig.sessions.puts.Load() - writes; n != 0 {
		t.Errorf("starting sign-ins wrote %d session items", n)
	}
	// Completing one of them replaces the session with a new one.
	if rec := rig.finish(b, rig.startSignIn(b, nil)); rec.Code != http.StatusSeeOther || b[sessionCookie] == session || !rig.signedIn(b) {
		t.Errorf("the completed sign-in: %d, same session id %v", rec.Code, b[sessionCookie] == session)
	}
	if rig.signedIn(browser{sessionCookie: session}) {
		t.Error("the session before the sign-in still works after it")
	}
}

// TestSignInStateBelongsToItsBrowser: a callback is accepted only with a
// state its own browser started, and only once; several tabs may sign in
// at once.
func TestSignInStateBelongsToItsBrowser(t *testing.T) {
	rig := newSessionRig(t, 0, 0)
	mallory, alice := browser{}, browser{}
	stolen := rig.startSignIn(mallory, nil)
	if rec := rig.finish(alice, stolen); rec.Code != http.StatusBadRequest || rig.signedIn(alice) {
		t.Errorf("another browser's state: %d", rec.Code)
	}
	first, second := rig.startSignIn(alice, nil), rig.startSignIn(alice, nil)
	if rec := rig.finish(alice, first); rec.Code != http.StatusSeeOther || !rig.signedIn(alice) {
		t.Fatalf("the first tab's sign-in: %d", rec.Code)
	}
	if rec := rig.finish(alice, first); rec.Code != http.StatusBadRequest {
		t.Errorf("a state used twice: %d", rec.Code)
	}
	if rec := rig.finish(alice, second); rec.Code != http.StatusSeeOther {
		t.Errorf("the second tab's sign-in: %d", rec.Code)
	}
	late := rig.startSignIn(alice, nil)
	rig.now = rig.now.Add(pendingSignInFor + time.Second)
	if rec := rig.finish(alice, late); rec.Code != http.StatusBadRequest {
		t.Errorf("a sign-in older than %v: %d", pendingSignInFor, rec.Code)
	}
}

// TestSessionLifetimes: a session ends at its absolute lifetime however
// much it is used, and an idle timeout under five minutes slides with use.
func TestSessionLifetimes(t *testing.T) {
	t.Run("absolute lifetime", func(t *testing.T) {
		rig := newSessionRig(t, 0, 0) // 8 h idle, 12 h at most
		b := browser{}
		rig.signIn(b)
		for range 11 {
			rig.now = rig.now.Add(time.Hour)
			if !rig.signedIn(b) {
				t.Fatalf("ended %v after the sign-in, in use", rig.now.Sub(time.Date(2026, 11, 24, 8, 0, 0, 0, time.UTC)))
			}
		}
		rig.now = rig.now.Add(time.Hour + time.Minute)
		if rig.signedIn(b) {
			t.Error("the session outlived its absolute lifetime of 12 h")
		}
	})
	t.Run("short idle timeout slides", func(t *testing.T) {
		rig := newSessionRig(t, 2*time.Minute, 0)
		b := browser{}
		rig.signIn(b)
		for i := range 10 {
			rig.now = rig.now.Add(90 * time.Second)
			if !rig.signedIn(b) {
				t.Fatalf("use %d, 90 s after the last: the 2-minute idle timeout did not slide", i+1)
			}
		}
		rig.now = rig.now.Add(2*time.Minute + time.Second)
		if rig.signedIn(b) {
			t.Error("the session outlived its idle timeout")
		}
	})
}

// TestSignedInClaimsAreNormalized: what the session keeps of an IdP's
// claims is the normalized person.
func TestSignedInClaimsAreNormalized(t *testing.T) {
	rig := newSessionRig(t, 0, 0)
	rig.idp.person.Name = "Ann\r\nSmith\u202e"
	b := browser{}
	rig.signIn(b)
	sess, err := rig.sessions.GetSession(context.Background(), digestOf(b[sessionCookie]))
	if err != nil || sess.Person == nil || sess.Person.Name != "Ann Smith" {
		t.Errorf("session %+v, %v", sess.Person, err)
	}
}
