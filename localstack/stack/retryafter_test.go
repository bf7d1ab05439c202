package stack

import (
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/edu-invite/invite/localstack/scimsp"
)

// An SP that answers 429 with Retry-After is left alone for that long, and
// the delivery goes through afterwards; the other SP is not held up.
//
// SP A throttles the creation of the guest, which the acceptance queues at
// the same moment as her creation at SP B. Both checks are orders of events,
// not durations a loaded machine stretches: every retry at A comes no
// sooner than Retry-After after the 429 before it, and by A's first retry
// SP B already has her in its group.
func TestRetryAfterIsHonoured(t *testing.T) {
	const retryAfter = 2 * time.Second
	var mu sync.Mutex
	var spB *scimsp.SP
	var throttledAt time.Time
	var earlyRetries []time.Duration
	attempts, throttles := 0, 2
	bMemberAtFirstRetry := false
	throttling := func(h http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			mu.Lock()
			// Only the guest's creation is throttled: one resource, one line.
			creatingUser := r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/Users")
			if creatingUser {
				attempts++
				if !throttledAt.IsZero() {
					if wait := time.Since(throttledAt); wait < retryAfter {
						earlyRetries = append(earlyRetries, wait)
					}
				}
				if attempts == 2 {
					bMemberAtFirstRetry = spB != nil && members(spB) == 1
				}
				if throttles > 0 {
					throttles--
					throttledAt = time.Now()
					mu.Unlock()
					w.Header().Set("Retry-After", "2")
					w.WriteHeader(http.StatusTooManyRequests)
					return
				}
			}
			mu.Unlock()
			h.ServeHTTP(w, r)
		})
	}
	f := newLifecycleFixtureWith(t, throttling)
	mu.Lock()
	spB = f.spB
	mu.Unlock()
	roleA := f.createRole("Wiki editors", "app-a", 30)
	roleB := f.createRole("Lab members", "app-b", 30)
	f.inviteAndAccept("alice@example.org", "en", "", roleA, roleB)
	eventually(t, "alice in the group at SP B", func() bool { return members(f.spB) == 1 })
	eventually(t, "alice in the group at SP A", func() bool { return members(f.spA) == 1 })

	mu.Lock()
	defer mu.Unlock()
	if throttles != 0 || attempts < 3 {
		t.Fatalf("SP A was asked to create alice %d times and throttled %d times less than planned", attempts, throttles)
	}
	if len(earlyRetries) > 0 {
		t.Fatalf("retried %v after a Retry-After of %v", earlyRetries, retryAfter)
	}
	if !bMemberAtFirstRetry {
		t.Fatal("SP B did not have alice in its group by SP A's first retry: it waited for SP A's pause")
	}
}
