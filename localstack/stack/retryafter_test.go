package stack

import (
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"
)

// An SP that answers 429 with Retry-After is left alone for that long, and
// the delivery goes through afterwards; the other SP is not held up.
func TestRetryAfterIsHonoured(t *testing.T) {
	var mu sync.Mutex
	var throttledAt, succeededAt time.Time
	throttles := 2
	throttling := func(h http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			mu.Lock()
			// Only the group's creation is throttled: one resource, one line.
			creatingGroup := r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/Groups")
			if creatingGroup && throttles > 0 {
				throttles--
				throttledAt = time.Now()
				mu.Unlock()
				w.Header().Set("Retry-After", "2")
				w.WriteHeader(http.StatusTooManyRequests)
				return
			}
			if creatingGroup && succeededAt.IsZero() {
				succeededAt = time.Now()
			}
			mu.Unlock()
			h.ServeHTTP(w, r)
		})
	}
	f := newLifecycleFixtureWith(t, throttling)
	start := time.Now()
	roleA := f.createRole("Wiki editors", "app-a", 30)
	roleB := f.createRole("Lab members", "app-b", 30)
	f.inviteAndAccept("alice@example.org", "en", "", roleA, roleB)
	eventually(t, "alice in the group at SP B", func() bool { return members(f.spB) == 1 })
	bDone := time.Since(start)
	eventually(t, "alice in the group at SP A", func() bool { return members(f.spA) == 1 })

	mu.Lock()
	defer mu.Unlock()
	if throttles != 0 || succeededAt.IsZero() {
		t.Fatalf("the SP throttled %d times less than planned", throttles)
	}
	if wait := succeededAt.Sub(throttledAt); wait < 2*time.Second {
		t.Fatalf("retried %v after a Retry-After of 2 s", wait)
	}
	if bDone >= 2*time.Second {
		t.Fatalf("SP B waited %v for SP A's backoff", bDone)
	}
}
