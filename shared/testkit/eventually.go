package testkit

import (
	"testing"
	"time"
)

// Eventually polls cond every 100 ms until it holds, failing the test after
// 30 seconds with what it was waiting for: for work another goroutine or
// process finishes (a queued delivery, a captured e-mail, a log line).
func Eventually(t testing.TB, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		if cond() {
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Fatalf("timed out waiting for %s", what)
}
