package dynamo_test

import (
	"sync"
	"testing"
	"time"
)

// Failures under one key and window are counted together, by any number of
// writers at once; another key or window counts apart.
func TestAuthFailuresCountPerKeyAndWindow(t *testing.T) {
	s := newStore(t)
	window := testNow.Truncate(10 * time.Minute)
	next := window.Add(10 * time.Minute)
	var wg sync.WaitGroup
	for range 12 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, err := s.AddAuthFailure(ctx(t), "src:192.0.2.7", window, next); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	for _, tc := range []struct {
		name  string
		key   string
		start time.Time
		want  int
	}{
		{"the 13th failure of the key in the window", "src:192.0.2.7", window, 13},
		{"another key", "src:192.0.2.8", window, 1},
		{"the next window", "src:192.0.2.7", next, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			n, err := s.AddAuthFailure(ctx(t), tc.key, tc.start, tc.start.Add(10*time.Minute))
			if err != nil || n != tc.want {
				t.Fatalf("count %d, %v; want %d", n, err, tc.want)
			}
		})
	}
}
