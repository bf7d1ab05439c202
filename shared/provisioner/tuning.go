package provisioner

import "time"

// RetryPolicy bounds the exponential backoff of transient failures; zero
// fields take the defaults (2 s doubling to 10 min). Tests of the whole
// delivery path under heavy faults shorten it.
type RetryPolicy struct {
	Base, Max time.Duration
}

func (r RetryPolicy) bounds() (base, maxD time.Duration) {
	base, maxD = baseDelay, maxDelay
	if r.Base > 0 {
		base = r.Base
	}
	if r.Max > 0 {
		maxD = r.Max
	}
	return base, max(base, maxD)
}

// BreakerPolicy tunes the per-SP circuit breaker; zero fields take the
// defaults (open after 5 consecutive failures, 10 s doubling to 5 min).
type BreakerPolicy struct {
	Threshold                int
	MinCooldown, MaxCooldown time.Duration
}

func (b BreakerPolicy) apply(g *spGuard) {
	if b.Threshold > 0 {
		g.threshold = b.Threshold
	}
	if b.MinCooldown > 0 {
		g.minCooldown = b.MinCooldown
	}
	if b.MaxCooldown > 0 {
		g.maxCooldown = b.MaxCooldown
	}
	g.maxCooldown = max(g.maxCooldown, g.minCooldown)
}
