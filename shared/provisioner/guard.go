package provisioner

import (
	"context"
	"fmt"
	"net/http"
	"strconv"
	"sync"
	"time"

	"golang.org/x/time/rate"

	"github.com/edu-invite/invite/shared/outbound"
)

// spGuard protects one SP from this service: a rate limit caps calls per
// second, and a circuit breaker stops calling an SP that keeps failing
// (timeouts, 5xx, 429) and lets one probe through after a cool-down, which
// doubles while the SP stays down. It is an http.RoundTripper wrapped around
// the SCIM client's transport, so every call is guarded, lookups included.
type spGuard struct {
	next    http.RoundTripper
	limiter *rate.Limiter
	now     func() time.Time

	// Breaker settings.
	threshold   int
	minCooldown time.Duration
	maxCooldown time.Duration

	mu        sync.Mutex
	failures  int       // consecutive
	openUntil time.Time // zero when closed
	cooldown  time.Duration
	probing   bool
}

// ErrCircuitOpen is returned, retryable, while an SP's breaker is open.
type ErrCircuitOpen struct {
	SP    string
	Until time.Time
}

func (e *ErrCircuitOpen) Error() string {
	return fmt.Sprintf("SP %s is failing; calls paused until %s", e.SP, e.Until.UTC().Format(time.RFC3339))
}

// Defaults of the guard.
const (
	defaultRatePerSecond = 20
	breakerThreshold     = 5
	breakerMinCooldown   = 10 * time.Second
	breakerMaxCooldown   = 5 * time.Minute
)

func newSPGuard(next http.RoundTripper, ratePerSecond float64) *spGuard {
	if next == nil {
		next = spTransport(outbound.Policy{})
	}
	if ratePerSecond <= 0 {
		ratePerSecond = defaultRatePerSecond
	}
	return &spGuard{
		next: next, limiter: rate.NewLimiter(rate.Limit(ratePerSecond), max(1, int(ratePerSecond))), now: time.Now,
		threshold: breakerThreshold, minCooldown: breakerMinCooldown, maxCooldown: breakerMaxCooldown,
	}
}

// spTransport is the HTTP transport of one SP: the address policy's, keeping as
// many idle connections to the SP as deliveries run at once (the default
// keeps 2, so a batch of concurrent deliveries opened a new TCP and TLS
// connection for most requests).
func spTransport(policy outbound.Policy) http.RoundTripper {
	t := policy.Transport()
	t.MaxIdleConnsPerHost = maxIdleConnsPerSP
	return t
}

// maxIdleConnsPerSP covers the deliveries of a Lambda invocation's batch
// (up to 10 message groups at once) and then some.
const maxIdleConnsPerSP = 32

// RoundTrip implements http.RoundTripper.
func (g *spGuard) RoundTrip(r *http.Request) (*http.Response, error) {
	if err := g.admit(r.Context(), r.URL.Host); err != nil {
		return nil, err
	}
	if err := g.limiter.Wait(r.Context()); err != nil {
		g.release()
		return nil, err
	}
	resp, err := g.next.RoundTrip(r)
	g.record(err != nil || resp.StatusCode >= 500 || resp.StatusCode == http.StatusTooManyRequests)
	if err == nil && (resp.StatusCode == http.StatusTooManyRequests || resp.StatusCode == http.StatusServiceUnavailable) {
		// Retry-After speaks for the whole SP, not just this request:
		// every line to the SP pauses, not only the one that was told.
		if wait := retryAfter(resp.Header.Get("Retry-After"), g.now()); wait > 0 {
			g.pause(min(wait, maxRetryAfter))
		}
	}
	return resp, err
}

// pause holds every call to the SP for d (no probe before it is over).
func (g *spGuard) pause(d time.Duration) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if until := g.now().Add(d); until.After(g.openUntil) {
		g.openUntil = until
	}
}

// retryAfter reads a Retry-After header: seconds or an HTTP date.
func retryAfter(h string, now time.Time) time.Duration {
	if h == "" {
		return 0
	}
	if secs, err := strconv.Atoi(h); err == nil {
		return time.Duration(max(secs, 0)) * time.Second
	}
	if t, err := http.ParseTime(h); err == nil {
		return t.Sub(now)
	}
	return 0
}

// admit lets a call through when the breaker is closed, or as the single
// probe once the cool-down is over.
func (g *spGuard) admit(_ context.Context, sp string) error {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.openUntil.IsZero() {
		return nil
	}
	if g.now().Before(g.openUntil) || g.probing {
		return &ErrCircuitOpen{SP: sp, Until: g.openUntil}
	}
	g.probing = true
	return nil
}

func (g *spGuard) release() {
	g.mu.Lock()
	g.probing = false
	g.mu.Unlock()
}

// record closes the breaker on success and opens it after threshold
// consecutive failures, or again at once when a probe fails.
func (g *spGuard) record(failed bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	wasProbe := g.probing
	g.probing = false
	if !failed {
		g.failures, g.openUntil, g.cooldown = 0, time.Time{}, 0
		return
	}
	g.failures++
	if g.failures < g.threshold && !wasProbe {
		return
	}
	if g.cooldown == 0 {
		g.cooldown = g.minCooldown
	} else {
		g.cooldown = min(2*g.cooldown, g.maxCooldown)
	}
	g.openUntil = g.now().Add(g.cooldown)
}
