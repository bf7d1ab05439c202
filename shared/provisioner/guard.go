package provisioner

import (
	"context"
	"fmt"
	"log/slog"
	"math"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/edu-invite/invite/shared/domain"
	"github.com/edu-invite/invite/shared/outbound"
)

// spGuard protects one SP from this service: a rate limit caps calls per
// second, and a circuit breaker stops calling an SP that keeps failing
// (timeouts, 5xx, 429) and lets one probe through after a cool-down, which
// doubles while the SP stays down. It is an http.RoundTripper wrapped around
// the SCIM client's transport, so every call is guarded, lookups included.
//
// Both hold across every provisioner instance: their state is the SP's
// domain.SPGuardState in GuardStates (the table), changed by conditional
// writes. An instance leases calls of the current rate window in blocks
// (leaseSize), so the happy path writes once per block, not per call; each
// consecutive failure halves the block, so that once the breaker opens the
// other instances hold at most a call or two of an older lease.
type spGuard struct {
	next   http.RoundTripper
	sp     string
	states GuardStates
	now    func() time.Time
	sleep  func(context.Context, time.Duration) error

	// Rate: at most limit calls in each window of windowSeconds, counted
	// in Unix time, so every instance numbers the windows alike. rate is
	// the configured one they come from.
	rate          float64
	limit         int
	windowSeconds int64
	leaseSize     int

	// Breaker settings.
	threshold   int
	minCooldown time.Duration
	maxCooldown time.Duration

	// mu serialises this instance's use of the shared state: concurrent
	// deliveries to the SP take calls of one lease, and lease one at a time.
	mu          sync.Mutex
	known       domain.SPGuardState // the shared state as last read or written
	knownAt     time.Time
	leaseWindow int64
	leaseLeft   int
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

	// maxLeaseSize bounds the calls one lease takes: a lease an instance
	// does not use up is lost to the others until the window ends.
	maxLeaseSize = 100
	// probeLease holds the other instances back while one probes; a probe
	// that never reports (its instance died) frees the SP after it.
	probeLease = time.Minute
	// staleAfter is how old the known state may be for a refusal (open
	// breaker) to be trusted without reading it again.
	staleAfter = time.Second
	// maxSaveAttempts bounds the optimistic writes of one step under
	// contention; then the call fails, retryable.
	maxSaveAttempts = 16
)

func newSPGuard(next http.RoundTripper, sp string, ratePerSecond float64, states GuardStates) *spGuard {
	if next == nil {
		next = spTransport(outbound.Policy{})
	}
	if states == nil {
		states = &memoryGuardStates{}
	}
	limit, window := rateWindow(ratePerSecond)
	return &spGuard{
		next: next, sp: sp, states: states, now: time.Now, sleep: sleepContext, rate: ratePerSecond,
		limit: limit, windowSeconds: window, leaseSize: max(1, min(limit/4, maxLeaseSize)),
		threshold: breakerThreshold, minCooldown: breakerMinCooldown, maxCooldown: breakerMaxCooldown,
	}
}

// rateWindow turns a rate into whole calls per window: per second from 1/s
// (rounded down), else one call per window of ⌈1/rate⌉ seconds.
func rateWindow(ratePerSecond float64) (limit int, windowSeconds int64) {
	if ratePerSecond <= 0 {
		ratePerSecond = defaultRatePerSecond
	}
	if ratePerSecond >= 1 {
		return int(ratePerSecond), 1
	}
	return 1, int64(math.Ceil(1 / ratePerSecond))
}

func sleepContext(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
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
	probe, err := g.acquire(r.Context(), r.URL.Host)
	if err != nil {
		return nil, err
	}
	resp, err := g.next.RoundTrip(r)
	failed := err != nil || resp.StatusCode >= 500 || resp.StatusCode == http.StatusTooManyRequests
	var pause time.Duration
	if err == nil && (resp.StatusCode == http.StatusTooManyRequests || resp.StatusCode == http.StatusServiceUnavailable) {
		// Retry-After speaks for the whole SP, not just this request:
		// every line to the SP pauses, not only the one that was told.
		if wait := retryAfter(resp.Header.Get("Retry-After"), g.now()); wait > 0 {
			pause = min(wait, maxRetryAfter)
		}
	}
	// The outcome is recorded even when the caller gave up meanwhile.
	g.record(context.WithoutCancel(r.Context()), failed, probe, pause)
	return resp, err
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

func (g *spGuard) windowOf(t time.Time) int64 { return t.Unix() / g.windowSeconds }

func (g *spGuard) windowStart(w int64) time.Time { return time.Unix(w*g.windowSeconds, 0) }

// acquire lets one call through: from this instance's lease of the current
// window, else from a new lease, waiting for the next window when this one
// is used up. It refuses while the breaker is open, and lets one call of all
// instances through as the probe once the cool-down is over.
func (g *spGuard) acquire(ctx context.Context, host string) (probe bool, err error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	for {
		now := g.now()
		w := g.windowOf(now)
		if g.leaseLeft > 0 && g.leaseWindow == w {
			g.leaseLeft--
			return false, nil
		}
		g.leaseLeft = 0
		grant, err := g.lease(ctx, now, w, host)
		if err != nil {
			return false, err
		}
		if grant.wait > 0 {
			if err := g.sleep(ctx, grant.wait); err != nil {
				return false, err
			}
			continue
		}
		g.leaseWindow, g.leaseLeft = w, grant.calls-1
		return grant.probe, nil
	}
}

// leaseGrant is what a lease came to: calls of the window (one of them the
// probe), or a wait for the next window.
type leaseGrant struct {
	calls int
	probe bool
	wait  time.Duration
}

// lease takes calls of window w from the shared state, starting from the
// state known here and computing again from the stored one when another
// instance wrote first.
func (g *spGuard) lease(ctx context.Context, now time.Time, w int64, host string) (leaseGrant, error) {
	st, fresh := g.known, false
	if !st.Open() {
		// The usual path: one atomic add, which other instances' leases
		// do not make fail as they would a versioned write. It applies
		// while the SP has failed no more than the size assumed.
		n := g.leaseFor(st)
		cur, taken, err := g.states.TakeSPCalls(ctx, g.sp, w, n, g.limit, st.Failures)
		if err != nil {
			return leaseGrant{}, fmt.Errorf("SP %s: take calls of the shared rate limit: %w", host, err)
		}
		g.remember(cur, now)
		if taken {
			return leaseGrant{calls: n}, nil
		}
		st, fresh = cur, true
	}
	for range maxSaveAttempts {
		next, grant, refused := g.plan(st, now, w, host)
		if refused != nil {
			if !fresh && now.Sub(g.knownAt) >= staleAfter {
				// Another instance's probe may have closed it since.
				var err error
				if st, err = g.states.GetSPGuard(ctx, g.sp); err != nil {
					return leaseGrant{}, fmt.Errorf("SP %s: read the shared rate limit and breaker: %w", host, err)
				}
				g.remember(st, now)
				fresh = true
				continue
			}
			return leaseGrant{}, refused
		}
		if grant.wait > 0 {
			// The window's count only grows: what was known is enough.
			return grant, nil
		}
		saved, ok, err := g.states.SaveSPGuard(ctx, next)
		if err != nil {
			return leaseGrant{}, fmt.Errorf("SP %s: take calls of the shared rate limit: %w", host, err)
		}
		g.remember(saved, now)
		if ok {
			return grant, nil
		}
		st, fresh = saved, true
	}
	return leaseGrant{}, fmt.Errorf("SP %s: the shared rate limit stayed contended; will retry", host)
}

// plan computes the lease from st: the state to write and what it grants,
// or the refusal of an open breaker.
func (g *spGuard) plan(st domain.SPGuardState, now time.Time, w int64, host string) (domain.SPGuardState, leaseGrant, error) {
	var grant leaseGrant
	next := st
	next.SPID = g.sp
	if !st.OpenUntil.IsZero() {
		if now.Before(st.OpenUntil) || now.Before(st.ProbeUntil) {
			return st, grant, &ErrCircuitOpen{SP: host, Until: st.OpenUntil}
		}
		grant.probe = true
	}
	if st.Window > w {
		// Another instance's clock is a little ahead: wait for its window.
		grant.wait = max(g.windowStart(w+1).Sub(now), time.Millisecond)
		return st, grant, nil
	}
	if st.Window < w {
		next.Window, next.Taken = w, 0
	}
	room := g.limit - next.Taken
	if room <= 0 {
		grant.wait = max(g.windowStart(w+1).Sub(now), time.Millisecond)
		return st, grant, nil
	}
	n := g.leaseFor(st)
	if grant.probe {
		n = 1
	}
	grant.calls = min(n, room)
	next.Taken += grant.calls
	if grant.probe {
		next.ProbeUntil = now.Add(probeLease)
	}
	return next, grant, nil
}

// leaseFor is the lease size while the SP has st.Failures consecutive
// failures: halved by each.
func (g *spGuard) leaseFor(st domain.SPGuardState) int {
	return max(1, g.leaseSize>>min(st.Failures, 16))
}

func (g *spGuard) remember(st domain.SPGuardState, at time.Time) {
	g.known, g.knownAt = st, at
}

// record writes a call's outcome to the shared breaker: a failure counts
// (and drops this instance's lease, so that its next call sees the shared
// state), a success clears the failures. A success of an SP that was not
// troubled writes nothing.
func (g *spGuard) record(ctx context.Context, failed, probe bool, pause time.Duration) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if failed {
		g.leaseLeft = 0
	} else if !probe && !g.known.Troubled() {
		return
	}
	st := g.known
	for range maxSaveAttempts {
		now := g.now()
		next, changed := g.outcome(st, now, failed, probe, pause)
		if !changed {
			return
		}
		saved, ok, err := g.states.SaveSPGuard(ctx, next)
		if err != nil {
			slog.Default().WarnContext(ctx, "the SP's shared breaker was not updated", "sp", g.sp, "error", err)
			return
		}
		g.remember(saved, now)
		if ok {
			return
		}
		st = saved
	}
	slog.Default().WarnContext(ctx, "the SP's shared breaker stayed contended; outcome not recorded", "sp", g.sp)
}

// outcome computes the breaker after a call. It opens after threshold
// consecutive failures, or again at once when the probe fails, for a
// cool-down doubling each time up to maxCooldown; the probe's success
// closes it. A success of a call leased before a pause (Retry-After)
// clears the failures but leaves the pause. A pause holds every call for
// its length (no probe before it is over).
func (g *spGuard) outcome(st domain.SPGuardState, now time.Time, failed, probe bool, pause time.Duration) (domain.SPGuardState, bool) {
	next := st
	next.SPID = g.sp
	if !failed {
		if probe || !now.Before(st.OpenUntil) {
			next.Failures, next.OpenUntil, next.Cooldown, next.ProbeUntil = 0, time.Time{}, 0, time.Time{}
			return next, st.Troubled()
		}
		next.Failures = 0
		return next, st.Failures != 0
	}
	next.Failures++
	if probe {
		next.ProbeUntil = time.Time{}
	}
	// While another instance probes, its outcome decides.
	if probe || (next.Failures >= g.threshold && !now.Before(st.OpenUntil) && !now.Before(st.ProbeUntil)) {
		next.Cooldown = g.minCooldown
		if st.Cooldown > 0 {
			next.Cooldown = min(2*st.Cooldown, g.maxCooldown)
		}
		next.OpenUntil = now.Add(next.Cooldown)
	}
	if until := now.Add(pause); pause > 0 && until.After(next.OpenUntil) {
		next.OpenUntil = until
	}
	return next, true
}
