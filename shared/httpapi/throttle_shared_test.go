package httpapi_test

import (
	"context"
	"net/http"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/edu-invite/invite/shared/httpapi"
)

var _ httpapi.FailureCounts = (*sharedCounts)(nil)

// sharedCounts is the table's count of failures, in memory.
type sharedCounts struct {
	mu     sync.Mutex
	counts map[string]int
}

func (s *sharedCounts) AddAuthFailure(_ context.Context, key string, windowStart, _ time.Time) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	k := key + "@" + windowStart.String()
	s.counts[k]++
	return s.counts[k], nil
}

// Guesses spread over two function instances are refused as if one had
// answered them all: the instances count in the shared table.
func TestGuessingIsThrottledAcrossInstances(t *testing.T) {
	shared := &sharedCounts{counts: map[string]int{}}
	first, second := newThrottledWorld(t), newThrottledWorld(t)
	for _, tw := range []*throttledWorld{first, second} {
		tw.th.Shared = shared
	}
	for i := range first.th.RefuseAfter {
		tw := []*throttledWorld{first, second}[i%2]
		if rec := tw.call("198.51.100.7", "/api/v1/roles", token("guess-"+strconv.Itoa(i))); rec.Code != http.StatusUnauthorized {
			t.Fatalf("guess %d: %d", i, rec.Code)
		}
	}
	for name, tw := range map[string]*throttledWorld{"first": first, "second": second} {
		rec := tw.call("198.51.100.7", "/api/v1/roles", token("one-guess-too-many"))
		if rec.Code != http.StatusTooManyRequests {
			t.Fatalf("the %s instance answered the source's next guess %d after %d failures on both", name, rec.Code, first.th.RefuseAfter)
		}
		if ra, err := strconv.Atoi(rec.Header().Get("Retry-After")); err != nil || ra <= 0 || ra > 600 {
			t.Errorf("Retry-After %q", rec.Header().Get("Retry-After"))
		}
	}
	// Each instance on its own would have counted only half of them.
	alone := newThrottledWorld(t)
	for i := range first.th.RefuseAfter/2 + 1 {
		alone.call("198.51.100.7", "/api/v1/roles", token("guess-"+strconv.Itoa(i)))
	}
	if rec := alone.call("198.51.100.7", "/api/v1/roles", token("another")); rec.Code != http.StatusUnauthorized {
		t.Fatalf("an instance counting alone refused after half the failures: %d", rec.Code)
	}
}
