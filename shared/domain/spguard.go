package domain

import "time"

// SPGuardState is what every provisioner instance knows of one SP's rate
// limit and circuit breaker, shared through the store so that the limit and
// the breaker hold across all instances: the calls taken in the current
// rate window, and the breaker's failures, pause and probe. Writers replace
// it whole, conditionally on Version (optimistic locking).
type SPGuardState struct {
	SPID string
	// Version is the stored version; 0 when the SP has no state yet.
	Version int64

	// Window numbers the current rate window (Unix seconds divided by the
	// window's length); Taken counts the calls granted in it.
	Window int64
	Taken  int

	// Failures counts consecutive failed calls. OpenUntil, when set, is the
	// end of the breaker's pause (no call before it); after it one probe
	// may call, and ProbeUntil holds the others back while it runs.
	// Cooldown is the breaker's last pause, doubled on each reopening.
	Failures   int
	OpenUntil  time.Time
	Cooldown   time.Duration
	ProbeUntil time.Time
}

// Troubled reports whether the SP failed lately or its breaker is open or
// probing: then a success has something to clear.
func (s SPGuardState) Troubled() bool {
	return s.Failures > 0 || s.Open()
}

// Open reports whether the breaker is open or probing (not closed).
func (s SPGuardState) Open() bool {
	return !s.OpenUntil.IsZero() || !s.ProbeUntil.IsZero()
}
