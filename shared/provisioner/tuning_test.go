package provisioner

import (
	"context"
	"errors"
	"net/http"
	"testing"
	"time"

	"github.com/edu-invite/invite/shared/scim"
)

func TestRetryPolicyBoundsTheBackoff(t *testing.T) {
	transport := &scim.Error{Op: "POST /Users", Err: errors.New("connection reset")}
	p := RetryPolicy{Base: 500 * time.Millisecond, Max: 3 * time.Second}
	full := func() float64 { return 1 }
	for attempt, want := range map[int]time.Duration{1: 500 * time.Millisecond, 2: time.Second, 3: 2 * time.Second, 4: 3 * time.Second, 40: 3 * time.Second} {
		if got := p.delay(transport, attempt, time.Now(), full); got != want {
			t.Errorf("attempt %d: delay %v, want %v", attempt, got, want)
		}
	}
	// Retry-After still wins over the policy.
	if got := p.delay(&scim.Error{Status: 429, RetryAfter: 9 * time.Second}, 1, time.Now(), full); got != 9*time.Second {
		t.Errorf("Retry-After: delay %v, want 9s", got)
	}
}

func TestBreakerPolicyTunesTheGuard(t *testing.T) {
	g := newSPGuard(http.DefaultTransport, "sp", 10, nil)
	BreakerPolicy{Threshold: 2, MinCooldown: time.Second, MaxCooldown: 4 * time.Second}.apply(g)
	now := time.Unix(0, 0)
	g.now = func() time.Time { return now }
	ctx := context.Background()
	g.record(ctx, true, false, 0)
	if !g.known.OpenUntil.IsZero() {
		t.Fatal("open after one failure with threshold 2")
	}
	g.record(ctx, true, false, 0)
	if want := now.Add(time.Second); !g.known.OpenUntil.Equal(want) {
		t.Fatalf("open until %v, want %v", g.known.OpenUntil, want)
	}
	for i := 0; i < 5; i++ {
		g.record(ctx, true, true, 0) // failed probes
	}
	if g.known.Cooldown != 4*time.Second {
		t.Fatalf("cooldown %v, want the 4s maximum", g.known.Cooldown)
	}
	// Zero fields keep the defaults.
	d := newSPGuard(http.DefaultTransport, "sp", 10, nil)
	BreakerPolicy{}.apply(d)
	if d.threshold != breakerThreshold || d.minCooldown != breakerMinCooldown || d.maxCooldown != breakerMaxCooldown {
		t.Fatalf("defaults changed: %+v", d)
	}
}
