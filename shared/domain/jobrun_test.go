package domain_test

import (
	"testing"
	"time"

	"github.com/edu-invite/invite/shared/domain"
)

// A run is failed as of a moment only when it is still marked running
// past its runner's time limit and the grace for its last write; a run
// that recorded its outcome, was never claimed or has no limit is left
// as it is.
func TestJobRunAsOf(t *testing.T) {
	now := time.Date(2026, 11, 28, 12, 0, 0, 0, time.UTC)
	started, limit := now.Add(-20*time.Minute), now.Add(-5*time.Minute)
	for _, tc := range []struct {
		name string
		run  domain.JobRun
		want string
	}{
		{"running past its limit", domain.JobRun{StartedAt: started, RunUntil: limit}, domain.JobFailed},
		{"running within the grace", domain.JobRun{StartedAt: started, RunUntil: now.Add(-30 * time.Second)}, domain.JobRunning},
		{"running, no limit", domain.JobRun{StartedAt: started}, domain.JobRunning},
		{"queued", domain.JobRun{QueuedAt: started, RunUntil: limit}, domain.JobQueued},
		{"succeeded before its limit", domain.JobRun{StartedAt: started, FinishedAt: limit.Add(-time.Minute), RunUntil: limit, Summary: "{}"}, domain.JobSucceeded},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := tc.run.AsOf(now)
			if got.Status() != tc.want {
				t.Fatalf("status %s, want %s", got.Status(), tc.want)
			}
			if tc.want == domain.JobFailed && (got.Summary != domain.StoppedAtTimeLimit || !got.FinishedAt.Equal(limit)) {
				t.Errorf("failed run %+v: want the time-limit message, finished at its limit", got)
			}
			if tc.want != domain.JobFailed && got != tc.run {
				t.Errorf("run changed: %+v, was %+v", got, tc.run)
			}
		})
	}
}
