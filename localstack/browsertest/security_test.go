package browsertest

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/edu-invite/invite/shared/service"
)

func linkState(t *testing.T, link string) service.LinkState {
	t.Helper()
	l, err := stk.App.Service.InvitationByLink(context.Background(), strings.SplitN(link, "hash=", 2)[1])
	must(t, err)
	return l.State
}

// TestCrossOriginPostChangesNothing: a form on another site that posts
// Accept for a signed-in guest is refused (in Chromium, whose cookie is
// SameSite=Lax, and for a client that sends the cookie anyway, by
// http.CrossOriginProtection); the same POST from this site works.
func TestCrossOriginPostChangesNothing(t *testing.T) {
	role := newRole(t, "Cross-origin", roleOptions{})
	link := invite(t, role, "grace@example.org", "en", "")
	hash := strings.SplitN(link, "hash=", 2)[1]
	grace := person{Name: "Grace", Email: "grace@example.org"}

	// In Chromium: Grace is signed in; a page on another site posts.
	ctx := newTab(t)
	open(t, ctx, link)
	click(t, ctx, "#signin")
	signInAtIdP(t, ctx, grace)
	evil := evilSite(t, fmt.Sprintf(`<!doctype html><html lang="en"><title>Win a prize</title><form method="post" action="%s/invitation/accept">
<input type="hidden" name="hash" value="%s"><button id="go">Claim</button></form></html>`, stk.URL, hash))
	open(t, ctx, evil)
	click(t, ctx, "#go")
	if got := linkState(t, link); got != service.LinkOpen {
		t.Fatalf("after a cross-site POST in Chromium the invitation is %s", got)
	}

	// A client that sends the session cookie with a cross-site POST.
	a := newAgent(t)
	a.signIn(link, grace)
	crossSite := http.Header{"Sec-Fetch-Site": {"cross-site"}, "Origin": {"https://evil.example"}}
	if status, _, body := a.do("POST", stk.URL+"/invitation/accept", url.Values{"hash": {hash}}, crossSite); status != http.StatusForbidden ||
		!strings.Contains(body, `data-state="crossOrigin"`) {
		t.Errorf("cross-site POST = %d, want 403 with the refusal page", status)
	}
	if got := linkState(t, link); got != service.LinkOpen {
		t.Fatalf("after a cross-site POST the invitation is %s", got)
	}
	sameOrigin := http.Header{"Sec-Fetch-Site": {"same-origin"}, "Origin": {stk.URL}}
	if status, to, _ := a.do("POST", stk.URL+"/invitation/accept", url.Values{"hash": {hash}}, sameOrigin); status != http.StatusSeeOther ||
		!strings.Contains(to, "/my/welcome") {
		t.Errorf("same-origin POST = %d to %s, want the welcome page", status, to)
	}
	if got := linkState(t, link); got != service.LinkAccepted {
		t.Errorf("after the same-origin POST the invitation is %s", got)
	}
}

// evilSite serves html on localhost, another site than 127.0.0.1.
func evilSite(t *testing.T, html string) string {
	t.Helper()
	ln, err := net.Listen("tcp", "localhost:0")
	must(t, err)
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = w.Write([]byte(html))
	}), ReadHeaderTimeout: 5 * time.Second}
	go func() { _ = srv.Serve(ln) }()
	t.Cleanup(func() { _ = srv.Close() })
	_, port, _ := net.SplitHostPort(ln.Addr().String())
	return "http://localhost:" + port + "/"
}

// TestSignInRefusesForgeries: a callback whose state this browser did not start,
// a code redeemed before, and an ID token with another nonce sign nobody in.
func TestSignInRefusesForgeries(t *testing.T) {
	heidi := person{Name: "Heidi", Email: "heidi@example.org"}
	refused := func(t *testing.T, a *agent, callback string, want int) {
		t.Helper()
		status, _, body := a.do("GET", callback, nil, nil)
		if status != want || !strings.Contains(body, `data-state="signinFailed"`) {
			t.Errorf("callback = %d, want %d with the sign-in failed page", status, want)
		}
		if u, _ := url.Parse(callback); strings.Contains(body, u.Query().Get("code")) {
			t.Error("the sign-in failed page repeats the code in its links")
		}
		if a.signedIn() {
			t.Error("the forged callback signed the browser in")
		}
	}

	t.Run("tampered state", func(t *testing.T) {
		a := newAgent(t)
		cb, _ := url.Parse(a.code(a.startLogin("/"), heidi, nil))
		q := cb.Query()
		q.Set("state", q.Get("state")+"x")
		cb.RawQuery = q.Encode()
		refused(t, a, cb.String(), http.StatusBadRequest)
	})
	t.Run("reused code", func(t *testing.T) {
		a := newAgent(t)
		first := a.code(a.startLogin("/"), heidi, nil)
		if status, _, _ := a.do("GET", first, nil, nil); status != http.StatusSeeOther || !a.signedIn() {
			t.Fatalf("the first use of the code did not sign in (%d)", status)
		}
		// The same callback in another browser (a leaked address): no
		// sign-in of that browser is under way, so nothing happens.
		refused(t, newAgent(t), first, http.StatusBadRequest)
		// The old code with the state of a new sign-in (of a browser not
		// signed in: a sign-in under way leaves a current session alone):
		// the IdP refuses it.
		b := newAgent(t)
		second, _ := url.Parse(b.code(b.startLogin("/"), heidi, nil))
		old, _ := url.Parse(first)
		q := second.Query()
		q.Set("code", old.Query().Get("code"))
		second.RawQuery = q.Encode()
		refused(t, b, second.String(), http.StatusUnauthorized)
	})
	t.Run("wrong nonce", func(t *testing.T) {
		a := newAgent(t)
		cb := a.code(a.startLogin("/"), heidi, func(f url.Values) { f.Set("nonce", "a-nonce-of-another-sign-in") })
		refused(t, a, cb, http.StatusUnauthorized)
	})
	t.Run("honest sign-in works", func(t *testing.T) {
		a := newAgent(t)
		a.signIn("/", heidi)
		if !a.signedIn() {
			t.Error("an honest sign-in did not sign in")
		}
	})
}

// TestReturnAddressStaysLocal: whatever next a sign-in is started with, it
// comes back to a page of this site.
func TestReturnAddressStaysLocal(t *testing.T) {
	ivan := person{Name: "Ivan", Email: "ivan@example.org"}
	for next, want := range map[string]string{
		"https://evil.example/":    "/",
		"//evil.example/":          "/",
		`/\evil.example`:           "/",
		"javascript:alert(1)":      "/",
		"/my/welcome?roles=1":      "/my/welcome?roles=1",
		"/invitation/accept?hash=": "/invitation/accept?hash=",
	} {
		t.Run(next, func(t *testing.T) {
			if got := newAgent(t).signIn(next, ivan); got != stk.URL+want {
				t.Errorf("return to %s, want %s", got, stk.URL+want)
			}
		})
	}
}

// TestSessionIdleTimeout: a session unused for longer than the idle
// timeout (8 hours) is no session, though DynamoDB Local keeps the item.
func TestSessionIdleTimeout(t *testing.T) {
	a := newAgent(t)
	a.signIn("/", person{Name: "Judy", Email: "judy@example.org"})
	if !a.signedIn() {
		t.Fatal("not signed in")
	}
	clock.Set(7 * time.Hour)
	still := a.signedIn() // use within the timeout slides it
	clock.Set(7*time.Hour + 8*time.Hour + time.Minute)
	defer clock.Set(0)
	if !still {
		t.Error("the session ended within its idle timeout")
	}
	if a.signedIn() {
		t.Error("the session outlived its idle timeout")
	}
}

// TestSecurityHeaders checks the headers of a page and of a static file.
func TestSecurityHeaders(t *testing.T) {
	a := newAgent(t)
	for path, cache := range map[string]string{"/": "no-store", "/invitation/accept?hash=x": "no-store", "/static/app.css": "public, max-age=3600"} {
		req, _ := http.NewRequest("GET", stk.URL+path, nil)
		resp, err := a.client.Do(req)
		must(t, err)
		resp.Body.Close()
		h := resp.Header
		if h.Get("Content-Security-Policy") == "" || !strings.Contains(h.Get("Content-Security-Policy"), "default-src 'self'") ||
			!strings.Contains(h.Get("Content-Security-Policy"), "frame-ancestors 'none'") || strings.Contains(h.Get("Content-Security-Policy"), "unsafe-inline") {
			t.Errorf("%s CSP = %q", path, h.Get("Content-Security-Policy"))
		}
		if h.Get("Referrer-Policy") != "no-referrer" || h.Get("X-Content-Type-Options") != "nosniff" || h.Get("Cache-Control") != cache {
			t.Errorf("%s headers = %v", path, h)
		}
	}
}
