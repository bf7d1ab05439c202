package domain

import (
	"context"
	"time"
)

// JobRunStore keeps the runs of jobs: the last run of each scheduled job
// and each on-demand run, queued, claimed and finished.
type JobRunStore interface {
	// PutJobRun records a run of a job (one item per name, overwritten); a
	// run with a StartedAt is claimed. No domain error.
	PutJobRun(ctx context.Context, r JobRun) error
	// ClaimJobRun marks the queued run called name as started at now with
	// a conditional write: false when it is unknown or another runner (a
	// retried invocation) has claimed it. No domain error.
	// runUntil (zero when the runner has no time limit) is kept so that a
	// run whose runner was stopped is seen as failed (JobRun.AsOf).
	ClaimJobRun(ctx context.Context, name string, now, runUntil time.Time) (JobRun, bool, error)
	// GetJobRuns reads the runs of the named jobs at once; a job that never
	// ran is left out. No domain error.
	GetJobRuns(ctx context.Context, names []string) ([]JobRun, error)
}
