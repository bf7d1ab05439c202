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
	// RunUntil is when the invocation that claimed the run is stopped
	// (a Lambda function's time limit); zero for a runner without one.
	RunUntil time.Time
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

// StoppedAtTimeLimit is the message of a run whose runner was stopped at
// its time limit before it recorded an outcome.
const StoppedAtTimeLimit = "the run was stopped at its time limit before it finished; start it again"

// runOutcomeGrace is how long after its runner's time limit a run may
// still record its outcome (the last write of a run that ended in time).
const runOutcomeGrace = time.Minute

// AsOf is the run as it stands at now: a run still marked running after
// its runner's time limit (and a grace for its last write) can no longer
// finish, so it is failed, ending at that limit. Nothing else changes.
func (r JobRun) AsOf(now time.Time) JobRun {
	if r.Status() != JobRunning || r.RunUntil.IsZero() || !now.After(r.RunUntil.Add(runOutcomeGrace)) {
		return r
	}
	r.FinishedAt, r.Failed, r.Summary = r.RunUntil, true, StoppedAtTimeLimit
	return r
}

// OnDemandJobRetention is how long an on-demand job's item is kept for
// polling before the table's TTL removes it.
const OnDemandJobRetention = 30 * 24 * time.Hour
