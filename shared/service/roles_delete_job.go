package service

import (
	"context"
	"time"

	"github.com/edu-invite/invite/shared/auth"
	"github.com/edu-invite/invite/shared/domain"
)

// DefaultRoleDeletionBudget is how many members a role's DELETE request
// removes itself: some five requests each, so that the request ends well
// inside an API function's time limit whatever the role's size. The
// members past it are removed by a role deletion job (domain.JobRoleDeletion)
// in the jobs function, which goes on in a job of its own when its time
// runs out; meanwhile the role is gone and its deletion in progress is
// kept (the store's RoleDeletion item), so a repeated DELETE also goes on.
const DefaultRoleDeletionBudget = 50

// roleDeletionReserve is how long before its deadline a role deletion job
// starts no more removals, and hands the rest to the next job.
const roleDeletionReserve = 60 * time.Second

func (s *Service) roleDeletionBudget() int {
	if s.RoleDeletionBudget > 0 {
		return s.RoleDeletionBudget
	}
	return DefaultRoleDeletionBudget
}

// RoleDeletionResult says how far a role deletion job came.
type RoleDeletionResult struct {
	RoleID int64 `json:"roleId"`
	// Done: every membership is gone and the deletion is finished.
	Done bool `json:"done"`
	// Continuation is the job that goes on with the members left.
	Continuation string `json:"continuation,omitempty"`
}

// continueRoleDeletion hands the members of a deleted role that are left
// to a role deletion job: in the jobs function (s.Jobs), else in this
// process, as StartJob runs a job. A job that cannot be queued is the
// caller's error: the deletion stays in progress, and a repeated DELETE
// goes on with it.
func (s *Service) continueRoleDeletion(ctx context.Context, p *auth.Principal, roleID int64) (string, error) {
	return s.launchJob(ctx, p, domain.JobRequest{Kind: domain.JobRoleDeletion, RoleID: roleID})
}

// resumeRoleDeletion is a role deletion job: it removes the deleted
// role's members until none is left (then the deletion is finished) or
// until roleDeletionReserve before its deadline (then the next job goes
// on). A deletion already finished is done.
func (s *Service) resumeRoleDeletion(ctx context.Context, p *auth.Principal, roleID int64) (RoleDeletionResult, error) {
	res := RoleDeletionResult{RoleID: roleID}
	role, err := s.Store.GetRoleDeletion(ctx, roleID)
	if domain.IsNotFound(err) {
		res.Done = true
		return res, nil
	}
	if err != nil {
		return res, err
	}
	var stopAt time.Time
	if deadline, ok := ctx.Deadline(); ok {
		stopAt = deadline.Add(-roleDeletionReserve)
	}
	done, err := s.removeMembershipsOfDeletedRole(ctx, p, role, 0, stopAt)
	if err != nil {
		return res, err
	}
	if !done {
		res.Continuation, err = s.continueRoleDeletion(ctx, p, roleID)
		return res, err
	}
	res.Done = true
	return res, s.Store.FinishRoleDeletion(ctx, roleID)
}
