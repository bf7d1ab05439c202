package httpapi_test

import (
	"net/http"
	"net/http/httptest"
	"strconv"
	"testing"
	"time"

	"github.com/edu-invite/invite/shared/auth"
	"github.com/edu-invite/invite/shared/httpapi"
	"github.com/edu-invite/invite/shared/middleware"
	"github.com/edu-invite/invite/shared/secrets"
)

// throttledWorld is the CRM world (machine callers) behind a throttle with
// a test clock, recording the pauses instead of taking them.
type throttledWorld struct {
	*crmWorld
	th    *httpapi.FailureThrottle
	now   time.Time
	slept []time.Duration
}

func newThrottledWorld(t *testing.T) *throttledWorld {
	tw := &throttledWorld{crmWorld: newCRMWorld(t)}
	tw.now = tw.Now
	tw.th = httpapi.NewFailureThrottle()
	tw.th.Now = func() time.Time { return tw.now }
	tw.th.Sleep = func(d time.Duration) { tw.slept = append(tw.slept, d) }
	tw.API.Throttle = tw.th
	tw.Server = tw.API.Local()
	return tw
}

// call sends GET path from source with the credential header set.
func (tw *throttledWorld) call(source, path string, header http.Header) *httptest.ResponseRecorder {
	req := httptest.NewRequest("GET", path, nil)
	req.RemoteAddr = source + ":4711"
	for k, vs := range header {
		for _, v := range vs {
			req.Header.Add(k, v)
		}
	}
	rec := httptest.NewRecorder()
	tw.Server.ServeHTTP(rec, req)
	return rec
}

func token(v string) http.Header { return http.Header{auth.APITokenHeader: {v}} }

func basic(user, password string) http.Header {
	r := httptest.NewRequest("GET", "/", nil)
	r.SetBasicAuth(user, password)
	return http.Header{"Authorization": {r.Header.Get("Authorization")}}
}

// Failed authentications per source and per credential are slowed, then
// answered 429 with Retry-After until the window ends.
func TestGuessingIsThrottled(t *testing.T) {
	tw := newThrottledWorld(t)
	for i := range tw.th.RefuseAfter {
		if rec := tw.call("198.51.100.7", "/api/v1/roles", token("guess-"+strconv.Itoa(i))); rec.Code != http.StatusUnauthorized {
			t.Fatalf("guess %d: %d", i, rec.Code)
		}
	}
	if len(tw.slept) == 0 || tw.slept[len(tw.slept)-1] <= tw.slept[0] {
		t.Errorf("guesses were not slowed increasingly: %v", tw.slept)
	}
	rec := tw.call("198.51.100.7", "/api/v1/roles", token("one-guess-too-many"))
	if rec.Code != http.StatusTooManyRequests {
		t.Fatalf("after %d failures the source's next guess answered %d", tw.th.RefuseAfter, rec.Code)
	}
	if ra, err := strconv.Atoi(rec.Header().Get("Retry-After")); err != nil || ra <= 0 || ra > 600 {
		t.Errorf("Retry-After %q", rec.Header().Get("Retry-After"))
	}
	// One Basic caller's password guessed from ever new addresses is
	// refused on its user name.
	for i := range tw.th.RefuseAfter {
		tw.call("192.0.2."+strconv.Itoa(i+1), "/api/external/v1/internal/invite/roles", basic(pdpUser, "guess-"+strconv.Itoa(i)))
	}
	if rec := tw.call("192.0.2.99", "/api/external/v1/internal/invite/roles", basic(pdpUser, "another-guess")); rec.Code != http.StatusTooManyRequests {
		t.Errorf("a guessed user name from a fresh source: %d", rec.Code)
	}
	// The window passes: failures are 401 again, undelayed.
	tw.now = tw.now.Add(11 * time.Minute)
	tw.slept = nil
	if rec := tw.call("198.51.100.7", "/api/v1/roles", token("late-guess")); rec.Code != http.StatusUnauthorized || len(tw.slept) != 0 {
		t.Errorf("after the window: %d, slept %v", rec.Code, tw.slept)
	}
}

// TestValidCredentialsAreServedWhereOthersFailed: an institution behind
// one NAT address keeps working while someone at that address (or
// anywhere) fails: a valid API token, CRM key and Basic password are
// served at once, undelayed, from an address whose failures are refused,
// and the health check answers whatever failed before.
func TestValidCredentialsAreServedWhereOthersFailed(t *testing.T) {
	tw := newThrottledWorld(t)
	const nat = "198.51.100.7"
	for i := range tw.th.RefuseAfter + 5 {
		tw.call(nat, "/api/v1/roles", token("guess-"+strconv.Itoa(i)))
		tw.call(nat, "/api/external/v1/internal/invite/roles", basic(pdpUser, "guess-"+strconv.Itoa(i)))
		tw.call(nat, "/crm/api/v1/organisations", http.Header{auth.CRMKeyHeader: {"guess-" + strconv.Itoa(i)}})
	}
	if rec := tw.call(nat, "/api/v1/roles", token("still-guessing")); rec.Code != http.StatusTooManyRequests {
		t.Fatalf("the guesser's next failure: %d, want 429", rec.Code)
	}
	for _, c := range []struct {
		name, path string
		header     http.Header
	}{
		{"organization token", "/api/v1/roles", token(orgTokenValue)},
		{"super-user token", "/api/v1/roles", token(superTokenValue)},
		{"Basic caller with its password", "/api/external/v1/internal/invite/roles/" + itoa(tw.RoleA), basic(pdpUser, pdpPassword)},
		{"CRM key", "/crm/api/v1/organisations", http.Header{auth.CRMKeyHeader: {crmKey}}},
		{"health check", "/health", nil},
		{"person", "/api/v1/users/me", http.Header{"Authorization": {"Bearer manager"}}},
	} {
		tw.slept = nil
		if rec := tw.call(nat, c.path, c.header); rec.Code != http.StatusOK {
			t.Errorf("%s from the address of the failures: %d %s", c.name, rec.Code, rec.Body.String())
		}
		if len(tw.slept) != 0 {
			t.Errorf("%s was delayed %v", c.name, tw.slept)
		}
	}
}

// TestViewerHeadersCountOnlyBehindTheOriginCheck: without the origin check
// anyone may write X-Viewer-Address or CloudFront-Viewer-Address, so they
// are ignored: guesses spread over invented addresses still count under
// the connection's, and failures charged to a victim's address leave the
// victim's own failures alone. Behind the check they name the viewer.
func TestViewerHeadersCountOnlyBehindTheOriginCheck(t *testing.T) {
	const attacker, victim = "203.0.113.66", "192.0.2.10"
	t.Run("without the origin check", func(t *testing.T) {
		tw := newThrottledWorld(t)
		for i := range tw.th.RefuseAfter {
			h := token("guess-" + strconv.Itoa(i))
			h.Set("X-Viewer-Address", "198.18.0."+strconv.Itoa(i+1))
			h.Set("CloudFront-Viewer-Address", "198.18.1."+strconv.Itoa(i+1)+":443")
			tw.call(attacker, "/api/v1/roles", h)
		}
		h := token("rotated-guess")
		h.Set("X-Viewer-Address", "198.18.0.200")
		if rec := tw.call(attacker, "/api/v1/roles", h); rec.Code != http.StatusTooManyRequests {
			t.Errorf("guesses rotating the viewer header were not counted together: %d", rec.Code)
		}
		for i := range tw.th.RefuseAfter {
			h := token("framed-" + strconv.Itoa(i))
			h.Set("X-Viewer-Address", victim)
			tw.call("203.0.113.67", "/api/v1/roles", h)
		}
		tw.slept = nil
		if rec := tw.call(victim, "/api/v1/roles", token("victims-typo")); rec.Code != http.StatusUnauthorized || len(tw.slept) != 0 {
			t.Errorf("the victim's own first failure: %d, slept %v; want an undelayed 401", rec.Code, tw.slept)
		}
	})
	t.Run("behind the origin check", func(t *testing.T) {
		const secret = "origin-secret-of-the-throttle-test-0123456789"
		t.Setenv("TEST_THROTTLE_ORIGIN_VERIFY", secret)
		tw := newThrottledWorld(t)
		tw.API.Origin = &middleware.OriginCheck{Secrets: secrets.NewResolver(nil, time.Minute), Ref: "env:TEST_THROTTLE_ORIGIN_VERIFY"}
		tw.Server = tw.API.Local()
		const edge = "130.176.0.1" // a CloudFront edge, shared by every viewer near it
		for i := range tw.th.RefuseAfter {
			h := token("guess-" + strconv.Itoa(i))
			h.Set(middleware.OriginHeader, secret)
			h.Set("X-Viewer-Address", attacker)
			tw.call(edge, "/api/v1/roles", h)
		}
		h := token("next-guess")
		h.Set(middleware.OriginHeader, secret)
		h.Set("X-Viewer-Address", attacker)
		if rec := tw.call(edge, "/api/v1/roles", h); rec.Code != http.StatusTooManyRequests {
			t.Errorf("the viewer's next failure: %d, want 429", rec.Code)
		}
		tw.slept = nil
		h = token("neighbours-typo")
		h.Set(middleware.OriginHeader, secret)
		h.Set("X-Viewer-Address", victim)
		if rec := tw.call(edge, "/api/v1/roles", h); rec.Code != http.StatusUnauthorized || len(tw.slept) != 0 {
			t.Errorf("another viewer at the same edge: %d, slept %v; want an undelayed 401", rec.Code, tw.slept)
		}
	})
}
