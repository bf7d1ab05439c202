package provisioner

import (
	"context"
	"errors"
	"net/http"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/edu-invite/invite/shared/domain"
)

// fakeClock is the time of guards that share it; sleeping moves it on.
type fakeClock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *fakeClock) Sleep(_ context.Context, d time.Duration) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
	return nil
}

// fakeSP answers every call with status and records when each came.
type fakeSP struct {
	clock  *fakeClock
	status atomic.Int32
	mu     sync.Mutex
	at     []time.Time
}

func (s *fakeSP) RoundTrip(r *http.Request) (*http.Response, error) {
	s.mu.Lock()
	s.at = append(s.at, s.clock.Now())
	s.mu.Unlock()
	status := int(s.status.Load())
	if status == 0 {
		status = http.StatusOK
	}
	return &http.Response{StatusCode: status, Body: http.NoBody, Header: http.Header{}, Request: r}, nil
}

func (s *fakeSP) calls() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.at)
}

// countingStates counts the writes of the shared state.
type countingStates struct {
	GuardStates
	saves atomic.Int32
}

func (c *countingStates) SaveSPGuard(ctx context.Context, st domain.SPGuardState) (domain.SPGuardState, bool, error) {
	c.saves.Add(1)
	return c.GuardStates.SaveSPGuard(ctx, st)
}

func (c *countingStates) TakeSPCalls(ctx context.Context, spID string, w int64, n, limit, maxFailures int) (domain.SPGuardState, bool, error) {
	c.saves.Add(1)
	return c.GuardStates.TakeSPCalls(ctx, spID, w, n, limit, maxFailures)
}

// instances returns n guards of one SP, as n provisioner instances have:
// each its own in-memory lease and knowledge, one shared state.
func instances(n int, rate float64, sp *fakeSP, states GuardStates) []*spGuard {
	gs := make([]*spGuard, n)
	for i := range gs {
		gs[i] = newSPGuard(sp, "sp", rate, states)
		gs[i].now, gs[i].sleep = sp.clock.Now, sp.clock.Sleep
	}
	return gs
}

func call(g *spGuard) error {
	req, _ := http.NewRequest(http.MethodGet, "http://sp.test/Users", nil)
	resp, err := g.RoundTrip(req)
	if err == nil {
		resp.Body.Close()
	}
	return err
}

// errWouldWait stands for a guard's wait for the next window.
var errWouldWait = errors.New("would wait for the next window")

// runInWindows makes calls through the guards in turn, as instances running
// side by side: a guard that would wait for the next window sits out until
// every guard would, and then the clock moves on to that window.
func runInWindows(t *testing.T, clock *fakeClock, gs []*spGuard, calls int) {
	t.Helper()
	var wait time.Duration
	for _, g := range gs {
		g.sleep = func(_ context.Context, d time.Duration) error {
			wait = d
			return errWouldWait
		}
	}
	waiting := map[int]bool{}
	for made, i := 0, 0; made < calls; i = (i + 1) % len(gs) {
		if waiting[i] {
			continue
		}
		switch err := call(gs[i]); {
		case errors.Is(err, errWouldWait):
			waiting[i] = true
			if len(waiting) == len(gs) {
				clock.Sleep(context.Background(), wait)
				clear(waiting)
			}
		case err != nil:
			t.Fatalf("call %d: %v", made, err)
		default:
			made++
		}
	}
}

func TestRateHoldsAcrossInstances(t *testing.T) {
	for _, tc := range []struct {
		name      string
		rate      float64
		calls     int
		window    time.Duration
		perWindow int
	}{
		{"20 per second", 20, 100, time.Second, 20},
		{"10 per second", 10, 45, time.Second, 10},
		{"3.5 per second, rounded down", 3.5, 12, time.Second, 3},
		{"one per second", 1, 5, time.Second, 1},
		{"one every 4 seconds", 0.3, 3, 4 * time.Second, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			clock := &fakeClock{now: time.Unix(1_000_000, 0)}
			sp := &fakeSP{clock: clock}
			states := &countingStates{GuardStates: &memoryGuardStates{}}
			gs := instances(3, tc.rate, sp, states)
			runInWindows(t, clock, gs, tc.calls)
			perWindow := map[int64]int{}
			for _, at := range sp.at {
				perWindow[at.Unix()/int64(tc.window/time.Second)]++
			}
			for w, n := range perWindow {
				if n > tc.perWindow {
					t.Errorf("window %d: %d calls reached the SP, want at most %d", w, n, tc.perWindow)
				}
			}
			// The limit costs no more than it must: the calls fill the
			// windows (leases are used up) and a lease writes once for
			// several calls.
			if want := (tc.calls + tc.perWindow - 1) / tc.perWindow; len(perWindow) != want {
				t.Errorf("%d calls took %d windows, want %d", tc.calls, len(perWindow), want)
			}
			if lease := max(1, tc.perWindow/4); int(states.saves.Load()) > (tc.calls+lease-1)/lease+len(gs)*len(perWindow) {
				t.Errorf("%d writes of the shared state for %d calls (leases of %d)", states.saves.Load(), tc.calls, lease)
			}
		})
	}
}

// Many instances leasing at once in one window never grant together more
// than the window's calls: a conditional write that lost its race computes
// again from the stored state.
func TestConcurrentLeasesNeverPassTheLimit(t *testing.T) {
	clock := &fakeClock{now: time.Unix(2_000_000, 0)}
	sp := &fakeSP{clock: clock}
	states := &memoryGuardStates{}
	gs := instances(8, 40, sp, states)
	full := errors.New("window used up")
	var wg sync.WaitGroup
	for _, g := range gs {
		g.sleep = func(context.Context, time.Duration) error { return full } // stop at the window's end
		wg.Add(1)
		go func() {
			defer wg.Done()
			for call(g) == nil {
			}
		}()
	}
	wg.Wait()
	st, _ := states.GetSPGuard(context.Background(), "sp")
	if sp.calls() > 40 || st.Taken != 40 {
		t.Fatalf("%d calls reached the SP and %d were taken in one window of 40", sp.calls(), st.Taken)
	}
}

// racingStates lets another instance write first, lost times, before each
// of the guard's versioned writes.
type racingStates struct {
	GuardStates
	lost int
}

func (r *racingStates) SaveSPGuard(ctx context.Context, st domain.SPGuardState) (domain.SPGuardState, bool, error) {
	if r.lost > 0 {
		r.lost--
		other, _ := r.GuardStates.GetSPGuard(ctx, st.SPID)
		other.Taken++
		if _, ok, err := r.GuardStates.SaveSPGuard(ctx, other); err != nil || !ok {
			panic("the other instance's write failed")
		}
	}
	return r.GuardStates.SaveSPGuard(ctx, st)
}

// A lease made from a state no longer stored (here: the SP failed once
// more than this instance knew) is a versioned write; one that lost its
// race is computed again from the stored state.
func TestALostWriteIsComputedAgain(t *testing.T) {
	for _, tc := range []struct {
		name    string
		lost    int
		wantErr bool
	}{
		{"one lost race", 1, false},
		{"several lost races", 5, false},
		{"contended for good", maxSaveAttempts, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx := context.Background()
			clock := &fakeClock{now: time.Unix(3_000_000, 0)}
			sp := &fakeSP{clock: clock}
			memory := &memoryGuardStates{}
			if _, ok, _ := memory.SaveSPGuard(ctx, domain.SPGuardState{SPID: "sp", Window: clock.now.Unix(), Failures: 1}); !ok {
				t.Fatal("setting up the troubled SP failed")
			}
			states := &racingStates{GuardStates: memory, lost: tc.lost}
			g := instances(1, 20, sp, states)[0]
			err := call(g)
			if tc.wantErr {
				if err == nil || IsPermanent(err) || sp.calls() != 0 {
					t.Fatalf("err %v (permanent %v), %d calls: want a retryable error and no call", err, IsPermanent(err), sp.calls())
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			st, _ := states.GetSPGuard(ctx, "sp")
			// One failure halves the lease.
			if want := tc.lost + g.leaseSize/2; st.Taken != want || sp.calls() != 1 {
				t.Fatalf("taken %d and %d calls, want the other instance's %d and a lease of %d", st.Taken, sp.calls(), tc.lost, g.leaseSize/2)
			}
			if st.Failures != 0 {
				t.Fatalf("failures %d after a success, want 0", st.Failures)
			}
		})
	}
}

func TestBreakerOpenedByOneInstanceHoldsForTheOthers(t *testing.T) {
	clock := &fakeClock{now: time.Unix(4_000_000, 0)}
	sp := &fakeSP{clock: clock}
	sp.status.Store(http.StatusServiceUnavailable)
	gs := instances(2, 1000, sp, &memoryGuardStates{})
	a, b := gs[0], gs[1]

	for i := range breakerThreshold {
		if err := call(a); err != nil {
			t.Fatalf("call %d of A refused before the threshold: %v", i, err)
		}
	}
	var open *ErrCircuitOpen
	if err := call(b); !errors.As(err, &open) || !open.Until.Equal(clock.Now().Add(breakerMinCooldown)) {
		t.Fatalf("B after A opened the breaker: %v, want open until +%v", err, breakerMinCooldown)
	}
	if sp.calls() != breakerThreshold {
		t.Fatalf("the SP got %d calls, want %d", sp.calls(), breakerThreshold)
	}

	// After the cool-down one probe of all instances goes: while B's
	// probe is under way A is refused; the probe fails, the breaker opens
	// for twice as long for both.
	clock.Sleep(context.Background(), breakerMinCooldown)
	probing, release := make(chan struct{}), make(chan struct{})
	b.next = roundTripFunc(func(r *http.Request) (*http.Response, error) {
		close(probing)
		<-release
		return sp.RoundTrip(r)
	})
	probeDone := make(chan error)
	go func() { probeDone <- call(b) }()
	<-probing
	if err := call(a); !errors.As(err, &open) {
		t.Fatalf("A during B's probe: %v, want refused", err)
	}
	close(release)
	if err := <-probeDone; err != nil {
		t.Fatalf("B's probe: %v", err)
	}
	b.next = sp
	reopened := clock.Now().Add(2 * breakerMinCooldown)
	clock.Sleep(context.Background(), staleAfter) // A read the state during the probe: it reads it again
	if err := call(a); !errors.As(err, &open) || !open.Until.Equal(reopened) {
		t.Fatalf("A after B's failed probe: %v, want open until +%v", err, 2*breakerMinCooldown)
	}

	// The SP recovers: A's probe closes the breaker for B too.
	sp.status.Store(http.StatusOK)
	clock.now = reopened
	for i, g := range []*spGuard{a, b, b, a} {
		if err := call(g); err != nil {
			t.Fatalf("call %d after recovery: %v", i, err)
		}
	}
	if sp.calls() != breakerThreshold+1+4 {
		t.Fatalf("the SP got %d calls, want %d", sp.calls(), breakerThreshold+1+4)
	}
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// Each consecutive failure halves the calls a lease takes, so that when the
// breaker opens the other instances hold few calls of older leases.
func TestFailuresShrinkTheLease(t *testing.T) {
	g := newSPGuard(nil, "sp", 1000, nil)
	for failures, want := range []int{100, 50, 25, 12, 6, 3, 1, 1} {
		if got := g.leaseFor(domain.SPGuardState{Failures: failures}); got != want {
			t.Errorf("after %d failures: lease of %d, want %d", failures, got, want)
		}
	}
}

// A rate changed in the registry applies to the next call, on the same
// connections.
func TestAChangedRateApplies(t *testing.T) {
	targets := &Targets{}
	first := targets.guard("sp", 10)
	if again := targets.guard("sp", 10); again != first {
		t.Fatal("the same rate gave a new guard")
	}
	changed := targets.guard("sp", 40)
	if changed.limit != 40 || changed.next != first.next {
		t.Fatalf("after the change: limit %d (want 40), same transport %v", changed.limit, changed.next == first.next)
	}
}
