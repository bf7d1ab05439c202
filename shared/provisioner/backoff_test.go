package provisioner

import (
	"errors"
	"testing"
	"time"

	"github.com/edu-invite/invite/shared/scim"
)

func TestRetryDelay(t *testing.T) {
	now := time.Unix(1000, 0)
	transport := &scim.Error{Op: "POST /Users", Status: 0, Err: errors.New("connection refused")}
	tests := []struct {
		name     string
		err      error
		attempt  int
		jitter   float64
		min, max time.Duration
	}{
		{"first retry, low jitter", transport, 1, 0, time.Second, time.Second},
		{"first retry, high jitter", transport, 1, 1, 2 * time.Second, 2 * time.Second},
		{"third retry", transport, 3, 0.5, 6 * time.Second, 6 * time.Second},
		{"capped", transport, 30, 1, maxDelay, maxDelay},
		{"Retry-After wins", &scim.Error{Op: "PATCH /Groups/1", Status: 429, RetryAfter: 7 * time.Second}, 5, 0, 7 * time.Second, 7 * time.Second},
		{"Retry-After bounded", &scim.Error{Op: "PATCH /Groups/1", Status: 503, RetryAfter: 48 * time.Hour}, 1, 0, maxRetryAfter, maxRetryAfter},
		{"open breaker: until it half-opens", &ErrCircuitOpen{SP: "a", Until: now.Add(40 * time.Second)}, 1, 0, 40 * time.Second, 40 * time.Second},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := retryDelay(tc.err, tc.attempt, now, func() float64 { return tc.jitter })
			if got < tc.min || got > tc.max {
				t.Fatalf("retryDelay = %v, want in [%v, %v]", got, tc.min, tc.max)
			}
		})
	}
}
