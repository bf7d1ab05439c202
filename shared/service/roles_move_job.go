package service

import (
	"context"
	"time"

	"github.com/edu-invite/invite/shared/auth"
	"github.com/edu-invite/invite/shared/domain"
)

// DefaultRoleMoveBudget is how many members a role's move to another
// organization carries into the new organization's user listing in its
// own request: a few requests each, so that the request ends well inside
// an API function's time limit whatever the role's size. The members past
// it are carried by a role move job (domain.JobRoleMove) in the jobs
// function, which goes on in a job of its own when its time runs out.
//
// Meanwhile the role itself is moved (its organization, listings and role
// counts changed in the update's transaction) and marked
// organizationsPending; a member not carried yet still has an item in the
// old organization's listing, which the user search never shows as it
// is: every organization-scoped answer keeps only memberships of roles
// that belong to the organization now (the role item is the truth) and
// leaves out a person left with none (users_scope.go).
const DefaultRoleMoveBudget = 50

// roleMoveReserve is how long before its deadline a role move job starts
// no more pages of members, and hands the rest to the next job.
const roleMoveReserve = 60 * time.Second

func (s *Service) roleMoveBudget() int {
	if s.RoleMoveBudget > 0 {
		return s.RoleMoveBudget
	}
	return DefaultRoleMoveBudget
}

// RoleMoveResult says how far a role move job came.
type RoleMoveResult struct {
	RoleID int64 `json:"roleId"`
	// Done: every member is carried and the move is finished.
	Done bool `json:"done"`
	// Continuation is the job that goes on with the members left.
	Continuation string `json:"continuation,omitempty"`
}

// carryMembersOfRole is the part of a role update that carries a moved
// role's members (or those of an earlier move left unfinished; for any
// other role it reads the role and finds nothing to do): at most the
// budget in the request, the rest in a role move job.
func (s *Service) carryMembersOfRole(ctx context.Context, p *auth.Principal, roleID int64) error {
	next, err := s.Store.MoveRoleMembers(ctx, roleID, "", s.roleMoveBudget(), time.Time{})
	if err != nil || next == "" {
		return err
	}
	_, err = s.continueRoleMove(ctx, p, roleID, next)
	return err
}

// continueRoleMove hands the members of a moved role that are left to a
// role move job: in the jobs function (s.Jobs), else in this process, as
// StartJob runs a job. A job that cannot be queued is the caller's error;
// the role stays marked, and its next update or the index repair carries
// its members.
func (s *Service) continueRoleMove(ctx context.Context, p *auth.Principal, roleID int64, cursor string) (string, error) {
	return s.launchJob(ctx, p, domain.JobRequest{Kind: domain.JobRoleMove, RoleID: roleID, Cursor: cursor})
}

// resumeRoleMove is a role move job: it carries the moved role's members
// from cursor until none is left (the store then clears the role's mark)
// or until roleMoveReserve before its deadline (then the next job goes
// on). A move already finished, or taken over by a later update of the
// role, is done.
func (s *Service) resumeRoleMove(ctx context.Context, p *auth.Principal, roleID int64, cursor string) (RoleMoveResult, error) {
	res := RoleMoveResult{RoleID: roleID}
	var stopAt time.Time
	if deadline, ok := ctx.Deadline(); ok {
		stopAt = deadline.Add(-roleMoveReserve)
	}
	next, err := s.Store.MoveRoleMembers(ctx, roleID, cursor, 0, stopAt)
	if err != nil {
		return res, err
	}
	if next != "" {
		res.Continuation, err = s.continueRoleMove(ctx, p, roleID, next)
		return res, err
	}
	res.Done = true
	return res, nil
}
