package provisioner

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"
)

func TestCircuitBreakerOpensProbesAndCloses(t *testing.T) {
	var status atomic.Int32
	status.Store(503)
	var calls atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		calls.Add(1)
		w.WriteHeader(int(status.Load()))
	}))
	defer srv.Close()
	now := time.Unix(1000, 0)
	g := newSPGuard(http.DefaultTransport, "sp", 1000, nil)
	g.now = func() time.Time { return now }
	client := &http.Client{Transport: g}
	get := func() error {
		resp, err := client.Get(srv.URL)
		if err == nil {
			resp.Body.Close()
		}
		return err
	}

	for i := 0; i < breakerThreshold; i++ {
		if err := get(); err != nil {
			t.Fatalf("call %d refused before the threshold: %v", i, err)
		}
	}
	var open *ErrCircuitOpen
	if err := get(); !errors.As(err, &open) {
		t.Fatalf("after %d failures: err = %v, want the breaker open", breakerThreshold, err)
	}
	if calls.Load() != breakerThreshold {
		t.Fatalf("the SP got %d calls, want %d: an open breaker must not call", calls.Load(), breakerThreshold)
	}

	// After the cool-down one probe goes through; it fails, so the breaker
	// opens again for twice as long.
	now = now.Add(breakerMinCooldown)
	if err := get(); err != nil {
		t.Fatalf("probe refused: %v", err)
	}
	if err := get(); !errors.As(err, &open) || !open.Until.Equal(now.Add(2*breakerMinCooldown)) {
		t.Fatalf("after a failed probe: %v, want open until %v", err, now.Add(2*breakerMinCooldown))
	}

	// The SP recovers: the next probe closes the breaker.
	status.Store(200)
	now = now.Add(2 * breakerMinCooldown)
	for i := 0; i < 3; i++ {
		if err := get(); err != nil {
			t.Fatalf("call %d after recovery: %v", i, err)
		}
	}
}

func TestRetryAfterPausesTheWholeSP(t *testing.T) {
	var calls atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		if calls.Add(1) == 1 {
			w.Header().Set("Retry-After", "30")
			w.WriteHeader(http.StatusTooManyRequests)
		}
	}))
	defer srv.Close()
	now := time.Unix(1000, 0)
	g := newSPGuard(http.DefaultTransport, "sp", 1000, nil)
	g.now = func() time.Time { return now }
	client := &http.Client{Transport: g}
	resp, err := client.Get(srv.URL)
	if err != nil || resp.StatusCode != http.StatusTooManyRequests {
		t.Fatalf("first call: %v %v", resp, err)
	}
	resp.Body.Close()
	var open *ErrCircuitOpen
	if _, err := client.Get(srv.URL + "/other-resource"); !errors.As(err, &open) || !open.Until.Equal(now.Add(30*time.Second)) {
		t.Fatalf("a call during the SP's Retry-After: %v, want paused until +30 s", err)
	}
	now = now.Add(31 * time.Second)
	resp, err = client.Get(srv.URL)
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("after the pause: %v %v", resp, err)
	}
	resp.Body.Close()
	if calls.Load() != 2 {
		t.Fatalf("the SP got %d calls, want 2", calls.Load())
	}
}
