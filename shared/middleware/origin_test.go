package middleware_test

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/edu-invite/invite/shared/middleware"
)

// fakeSecrets is Secrets Manager behind a cache, as shared/secrets.Resolver
// holds it: Resolve answers the cached value, ResolveFresh the stored one.
type fakeSecrets struct {
	mu           sync.Mutex
	stored       string
	cached       string
	fail         bool
	resolves     int
	freshReads   int
	lastRefAsked string
}

func (f *fakeSecrets) Resolve(_ context.Context, ref string) (string, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.resolves++
	f.lastRefAsked = ref
	if f.fail {
		return "", errors.New("read secret arn:aws:secretsmanager:eu-west-1:1:secret:invite/origin-verify: AccessDenied")
	}
	if f.cached == "" {
		f.cached = f.stored
	}
	return f.cached, nil
}

func (f *fakeSecrets) ResolveFresh(_ context.Context, ref string) (string, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.freshReads++
	f.lastRefAsked = ref
	if f.fail {
		return "", errors.New("read secret arn:aws:secretsmanager:eu-west-1:1:secret:invite/origin-verify: AccessDenied")
	}
	f.cached = f.stored
	return f.cached, nil
}

func (f *fakeSecrets) rotate(v string) {
	f.mu.Lock()
	f.stored = v
	f.mu.Unlock()
}

const (
	secretV1 = "s3cret-origin-value-one-0123456789abcdef"
	secretV2 = "s3cret-origin-value-two-fedcba9876543210"
	ref      = "secretsmanager:arn:aws:secretsmanager:eu-west-1:1:secret:invite/origin-verify"
)

type guarded struct {
	check   *middleware.OriginCheck
	secrets *fakeSecrets
	now     time.Time
	logs    *bytes.Buffer
	served  int
	handler http.Handler
}

func newGuarded() *guarded {
	g := &guarded{secrets: &fakeSecrets{stored: secretV1}, now: time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC), logs: &bytes.Buffer{}}
	g.check = &middleware.OriginCheck{Secrets: g.secrets, Ref: ref, Now: func() time.Time { return g.now },
		Logger: slog.New(slog.NewJSONHandler(g.logs, &slog.HandlerOptions{Level: slog.LevelDebug}))}
	next := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		g.served++
		// What runs behind the guard never sees the secret.
		if v := r.Header.Get(middleware.OriginHeader); v != "" {
			w.WriteHeader(http.StatusInternalServerError)
			return
		}
		w.WriteHeader(http.StatusNoContent)
	})
	refuse := func(w http.ResponseWriter, _ *http.Request) { http.Error(w, "refused", http.StatusForbidden) }
	g.handler = g.check.Guard(refuse)(next)
	return g
}

func (g *guarded) call(header string, set bool) int {
	req := httptest.NewRequest(http.MethodPost, "/api/v1/roles", strings.NewReader(`{"name":"x"}`))
	if set {
		req.Header.Set(middleware.OriginHeader, header)
	}
	rec := httptest.NewRecorder()
	g.handler.ServeHTTP(rec, req)
	return rec.Code
}

// TestOriginCheckRefusesWithoutTheSecret: a request without the header, with
// an empty one or with a wrong one is refused before the handler runs; the
// right one passes, and the handler never sees the header.
func TestOriginCheckRefusesWithoutTheSecret(t *testing.T) {
	for _, tc := range []struct {
		name   string
		header string
		set    bool
		want   int
	}{
		{"missing", "", false, http.StatusForbidden},
		{"empty", "", true, http.StatusForbidden},
		{"wrong", "not-the-secret", true, http.StatusForbidden},
		{"prefix of the secret", secretV1[:10], true, http.StatusForbidden},
		{"secret with more", secretV1 + "x", true, http.StatusForbidden},
		{"right", secretV1, true, http.StatusNoContent},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := newGuarded()
			if got := g.call(tc.header, tc.set); got != tc.want {
				t.Fatalf("status %d, want %d", got, tc.want)
			}
			if wantServed := map[bool]int{true: 1, false: 0}[tc.want == http.StatusNoContent]; g.served != wantServed {
				t.Errorf("handler ran %d times, want %d", g.served, wantServed)
			}
			if g.secrets.lastRefAsked != "" && g.secrets.lastRefAsked != ref {
				t.Errorf("asked for %q, want %q", g.secrets.lastRefAsked, ref)
			}
		})
	}
}

// TestOriginCheckFollowsARotation: after the secret is rotated, the first
// request with the new value reads the secret again past the cache and
// passes; forged values read it at most once per interval; the old value
// stays accepted for the grace period (CloudFront's edges change over one
// by one), then not.
func TestOriginCheckFollowsARotation(t *testing.T) {
	g := newGuarded()
	if got := g.call(secretV1, true); got != http.StatusNoContent {
		t.Fatalf("before the rotation: %d", got)
	}
	g.secrets.rotate(secretV2)
	if got := g.call(secretV2, true); got != http.StatusNoContent {
		t.Fatalf("the new value right after the rotation: %d", got)
	}
	if g.secrets.freshReads != 1 {
		t.Errorf("fresh reads after the rotation = %d, want 1", g.secrets.freshReads)
	}
	if got := g.call(secretV2, true); got != http.StatusNoContent || g.secrets.freshReads != 1 {
		t.Errorf("the new value again: %d, fresh reads %d (want no more)", got, g.secrets.freshReads)
	}
	// Forged values cost at most one read per interval.
	for round := range 2 {
		for range 50 {
			if got := g.call("forged", true); got != http.StatusForbidden {
				t.Fatalf("forged: %d", got)
			}
		}
		if g.secrets.freshReads != 1+round {
			t.Errorf("fresh reads after 50 forged values in interval %d = %d, want %d (one per %s)",
				round, g.secrets.freshReads, 1+round, middleware.DefaultOriginReread)
		}
		g.now = g.now.Add(middleware.DefaultOriginReread)
	}
	// The replaced value, within the grace period and after it.
	if got := g.call(secretV1, true); got != http.StatusNoContent {
		t.Errorf("the replaced value within the grace period: %d", got)
	}
	g.now = g.now.Add(middleware.DefaultOriginGrace + time.Second)
	if got := g.call(secretV1, true); got != http.StatusForbidden {
		t.Errorf("the replaced value after the grace period: %d", got)
	}
	if got := g.call(secretV2, true); got != http.StatusNoContent {
		t.Errorf("the current value after the grace period: %d", got)
	}

	// A rotation seen within the interval of the last fresh read: refused
	// until the interval passes, then accepted.
	g.secrets.rotate("third-value-of-the-origin-secret")
	g.now = g.now.Add(time.Second)
	if got := g.call("third-value-of-the-origin-secret", true); got != http.StatusForbidden {
		t.Errorf("within the interval of a read: %d", got)
	}
	g.now = g.now.Add(middleware.DefaultOriginReread)
	if got := g.call("third-value-of-the-origin-secret", true); got != http.StatusNoContent {
		t.Errorf("after the interval: %d", got)
	}
}

// TestOriginCheckFailsClosed: a secret that cannot be read refuses every
// request, and the log says why without any value.
func TestOriginCheckFailsClosed(t *testing.T) {
	g := newGuarded()
	g.secrets.fail = true
	if got := g.call(secretV1, true); got != http.StatusForbidden || g.served != 0 {
		t.Errorf("unreadable secret: %d, handler ran %d times", got, g.served)
	}
	if !strings.Contains(g.logs.String(), "origin secret unreadable") {
		t.Errorf("log does not say the secret is unreadable: %s", g.logs)
	}
}

// TestOriginCheckNeverLogsTheSecret: refusals are logged with method and
// path, never with the secret or the value presented.
func TestOriginCheckNeverLogsTheSecret(t *testing.T) {
	g := newGuarded()
	g.call("", false)
	g.call("almost-"+secretV1, true)
	g.call(secretV1, true)
	g.secrets.rotate(secretV2)
	g.call(secretV2, true)
	g.call(secretV1, true)
	logs := g.logs.String()
	if !strings.Contains(logs, "request without the origin secret refused") || !strings.Contains(logs, "/api/v1/roles") {
		t.Errorf("refusals not logged: %s", logs)
	}
	for _, v := range []string{secretV1, secretV2, "almost-"} {
		if strings.Contains(logs, v) {
			t.Errorf("log holds %q: %s", v, logs)
		}
	}
}
