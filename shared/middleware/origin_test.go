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
// holds it: Resolve answers the cached current value, ResolveFresh the
// stored one; the previous version (AWSPREVIOUS) is read fresh only.
type fakeSecrets struct {
	mu           sync.Mutex
	stored       string
	previous     string // "": none (no rotation yet, or retired)
	cached       string
	fail         bool
	freshReads   int
	lastRefAsked string
}

func (f *fakeSecrets) Resolve(_ context.Context, ref string) (string, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.lastRefAsked = ref
	if f.fail {
		return "", errors.New("read secret arn:aws:secretsmanager:eu-west-1:1:secret:invite/origin-verify: AccessDenied")
	}
	if ref != ref1 {
		panic("the previous version is read fresh only")
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
	if ref == previousRef {
		if f.previous == "" {
			return "", errors.New("read secret invite/origin-verify: ResourceNotFoundException")
		}
		return f.previous, nil
	}
	f.cached = f.stored
	return f.cached, nil
}

// rotate is put-secret-value: the new value is current, the old previous;
// the cache still holds the old one until it expires.
func (f *fakeSecrets) rotate(v string) {
	f.mu.Lock()
	f.previous, f.stored = f.stored, v
	f.mu.Unlock()
}

func (f *fakeSecrets) expireCache() {
	f.mu.Lock()
	f.cached = ""
	f.mu.Unlock()
}

func (f *fakeSecrets) retirePrevious() {
	f.mu.Lock()
	f.previous = ""
	f.mu.Unlock()
}

const (
	secretV1    = "s3cret-origin-value-one-0123456789abcdef"
	secretV2    = "s3cret-origin-value-two-fedcba9876543210"
	ref1        = "secretsmanager:arn:aws:secretsmanager:eu-west-1:1:secret:invite/origin-verify"
	previousRef = ref1 + "?versionStage=AWSPREVIOUS"
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
	return newGuardedOn(&fakeSecrets{stored: secretV1}, time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC))
}

// newGuardedOn is a function instance (a cold start) on the given secret.
func newGuardedOn(secrets *fakeSecrets, now time.Time) *guarded {
	g := &guarded{secrets: secrets, now: now, logs: &bytes.Buffer{}}
	g.check = &middleware.OriginCheck{Secrets: g.secrets, Ref: ref1, PreviousRef: previousRef, Now: func() time.Time { return g.now },
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
			if a := g.secrets.lastRefAsked; a != "" && a != ref1 && a != previousRef {
				t.Errorf("asked for %q, want %q", a, ref1)
			}
		})
	}
}

// TestOriginCheckFollowsARotation walks the rotation of infra/README.md:
// put a new value (the old one becomes AWSPREVIOUS), redeploy CloudFront
// with it, retire the old one. No request CloudFront sends is refused on
// the way, on a warm function or a cold one; the retired value is refused
// within a minute; forged values cost at most one read per interval.
func TestOriginCheckFollowsARotation(t *testing.T) {
	g := newGuarded()
	if got := g.call(secretV1, true); got != http.StatusNoContent {
		t.Fatalf("before the rotation: %d", got)
	}
	g.secrets.rotate(secretV2)
	// CloudFront still sends the old value: the warm function's cache
	// holds it, then, once the cache expired, the previous version passes.
	if got := g.call(secretV1, true); got != http.StatusNoContent || g.secrets.freshReads != 0 {
		t.Fatalf("old value, cache warm: %d, %d fresh reads", got, g.secrets.freshReads)
	}
	g.secrets.expireCache()
	if got := g.call(secretV1, true); got != http.StatusNoContent {
		t.Fatalf("old value after the cache expired: %d", got)
	}
	reads := g.secrets.freshReads
	g.now = g.now.Add(time.Second)
	if got := g.call(secretV1, true); got != http.StatusNoContent || g.secrets.freshReads != reads {
		t.Errorf("old value again: %d, %d more fresh reads (want 0: the previous value is known)", got, g.secrets.freshReads-reads)
	}
	// A function started after the put knows only the new value at first.
	cold := newGuardedOn(g.secrets, g.now)
	if got := cold.call(secretV1, true); got != http.StatusNoContent {
		t.Errorf("old value on a cold start: %d", got)
	}
	// CloudFront redeployed: its edges send the new value, some still the
	// old; a function whose cache still holds the old one reads again.
	stale := newGuardedOn(&fakeSecrets{stored: secretV1}, g.now)
	stale.call(secretV1, true)
	stale.secrets.rotate(secretV2)
	if got := stale.call(secretV2, true); got != http.StatusNoContent {
		t.Errorf("new value on a function whose cache holds the old one: %d", got)
	}
	for _, h := range []*guarded{g, cold} {
		if got := h.call(secretV2, true); got != http.StatusNoContent {
			t.Errorf("new value: %d", got)
		}
	}
	// The old value is retired: refused within PreviousFor.
	g.secrets.retirePrevious()
	g.now = g.now.Add(middleware.DefaultPreviousFor + time.Second)
	if got := g.call(secretV1, true); got != http.StatusForbidden {
		t.Errorf("retired value: %d", got)
	}
	if got := g.call(secretV2, true); got != http.StatusNoContent {
		t.Errorf("current value after the retirement: %d", got)
	}
	// Forged values cost at most one round of reads per interval.
	g.now = g.now.Add(middleware.DefaultOriginReread)
	for round := range 2 {
		before := g.secrets.freshReads
		for range 50 {
			if got := g.call("forged", true); got != http.StatusForbidden {
				t.Fatalf("forged: %d", got)
			}
		}
		if n := g.secrets.freshReads - before; n != 2 {
			t.Errorf("round %d: %d fresh reads for 50 forged values, want 2 (current and previous, once per %s)",
				round, n, middleware.DefaultOriginReread)
		}
		g.now = g.now.Add(middleware.DefaultOriginReread)
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
	g.secrets.retirePrevious()
	g.now = g.now.Add(time.Hour)
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
