package domain

import "context"

// JobKind is a kind of on-demand job: maintenance work that may take
// longer than a request, so the API answers 202 with the job to poll and a
// function with the time for it runs the job.
type JobKind string

const (
	JobReminders       JobKind = "expiry-notifications" // the reminder mails of memberships about to end
	JobCleanup         JobKind = "cleanup"              // expired invitations, tokens and memberships
	JobDateCheck       JobKind = "date-check"           // stored dates out of bounds, listed
	JobDateRepair      JobKind = "date-repair"          // stored dates out of bounds, repaired
	JobIndexRepair     JobKind = "index-repair"         // derived items older versions did not write
	JobPerformanceSeed JobKind = "performance-seed"     // roles and users for performance tests
	JobLandingPageFix  JobKind = "landing-page-fix"     // missing landing pages filled in from the registry
	// JobExpiry goes on with the memberships still due when an expiry run
	// stopped at its time budget: the run queues it itself (not the API).
	JobExpiry JobKind = "expiry"
	// JobRoleDeletion goes on with the memberships of a deleted role that
	// its DELETE request (or the job before) left; started by the role's
	// deletion, never by the jobs API.
	JobRoleDeletion JobKind = "role-deletion"
	// JobRoleMove carries the members of a role moved to another
	// organization that its update request (or the job before) left into
	// the new organization's user listing; started by the move, never by
	// the jobs API.
	JobRoleMove JobKind = "role-move"
)

// JobRequest is one on-demand job as the API starts it and the runner
// runs it. Its parameters were checked when it was started.
type JobRequest struct {
	ID   string  `json:"jobId"`
	Kind JobKind `json:"kind"`
	// StartedBy is the name of the super user who started it, for the
	// audit fields of what it changes.
	StartedBy string `json:"startedBy"`
	// CallerKind and CallerUserID say how the starter signed in, so that
	// the job's log lines name the starter by id, as the request's did.
	CallerKind   string `json:"callerKind,omitempty"`
	CallerUserID int64  `json:"callerUserId,omitempty"`
	// Roles and Users are the performance seed's sizes.
	Roles int `json:"roles,omitempty"`
	Users int `json:"users,omitempty"`
	// Cursor continues an index repair, or a role move, that a run left
	// unfinished.
	Cursor string `json:"cursor,omitempty"`
	// RoleID is the deleted role whose memberships a role deletion job
	// removes, or the moved role whose members a role move job carries.
	RoleID int64 `json:"roleId,omitempty"`
}

// JobStarter starts an on-demand job elsewhere (the jobs function, which
// has the time) and returns at once; the runner claims the job's run
// (OnDemandJobName), runs it and records its outcome there.
type JobStarter interface {
	StartJob(ctx context.Context, req JobRequest) error
}

// OnDemandJobName is the job run name of an on-demand job.
func OnDemandJobName(id string) string { return "job#" + id }
