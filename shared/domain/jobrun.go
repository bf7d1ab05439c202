package domain

import "time"

// JobRun is a run of a job: the last run of a scheduled job (expiry,
// cleanup, outbox-sweep, reconcile) for the super users' operations page,
// or one on-demand job (OnDemandJobName, ReconcileJobName) that its
// starter polls.
type JobRun struct {
	Name string
	// QueuedAt is when an on-demand job was started; it waits, queued,
	// until a runner claims it (StartedAt).
	QueuedAt   time.Time
	StartedAt  time.Time
	FinishedAt time.Time
	Failed     bool
	// Summary is the job's result as JSON (counts, no personal data), or
	// the error when it failed.
	Summary string
}

// Job states, as the API and the console show them.
const (
	JobQueued    = "queued"
	JobRunning   = "running"
	JobSucceeded = "succeeded"
	JobFailed    = "failed"
)

// Status is where the run is: queued until a runner claims it, running
// until it records its outcome, then succeeded or failed.
func (r JobRun) Status() string {
	switch {
	case !r.FinishedAt.IsZero() && r.Failed:
		return JobFailed
	case !r.FinishedAt.IsZero():
		return JobSucceeded
	case !r.StartedAt.IsZero():
		return JobRunning
	}
	return JobQueued
}

// OnDemandJobRetention is how long an on-demand job's item is kept for
// polling before the table's TTL removes it.
const OnDemandJobRetention = 30 * 24 * time.Hour
