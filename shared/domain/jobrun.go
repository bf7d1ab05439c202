package domain

import "time"

// JobRun is the last run of a scheduled job (expiry, cleanup,
// outbox-sweep): when it ran, whether it succeeded, and what it did in
// short, for the super users' operations page.
type JobRun struct {
	Name       string
	StartedAt  time.Time
	FinishedAt time.Time
	Failed     bool
	// Summary is the job's result as JSON (counts, no personal data), or
	// the error when it failed.
	Summary string
}
