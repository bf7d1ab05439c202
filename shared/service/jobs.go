package service

import (
	"context"
	"fmt"
	"time"

	"github.com/edu-invite/invite/shared/auth"
	"github.com/edu-invite/invite/shared/domain"
)

// maxListedDateRepairs bounds the repairs a date job's result lists: the
// result is kept in one table item.
const maxListedDateRepairs = 500

// JobInput is an on-demand job a super user starts.
type JobInput struct {
	Kind domain.JobKind
	// Roles and Users size the performance seed.
	Roles, Users int
	// Cursor continues an unfinished index repair (its result's next).
	Cursor string
}

// StartJob checks and queues an on-demand job and returns its id at once:
// the work may take longer than a request. With Jobs set (the API in AWS)
// the jobs function runs it; otherwise it runs in this process. Job reads
// its state. Errors: Forbidden for callers other than super users (and a
// seed this installation does not allow), Invalid for a kind or size out
// of bounds.
func (s *Service) StartJob(ctx context.Context, p *auth.Principal, in JobInput) (string, error) {
	if err := requireSuperUser(p); err != nil {
		return "", err
	}
	switch in.Kind {
	case domain.JobReminders, domain.JobCleanup, domain.JobDateCheck, domain.JobDateRepair, domain.JobIndexRepair, domain.JobLandingPageFix:
	case domain.JobPerformanceSeed:
		if err := s.checkSeed(p, in.Roles, in.Users); err != nil {
			return "", err
		}
	default:
		return "", domain.Invalidf("no job %q", in.Kind)
	}
	return s.launchJob(ctx, p, domain.JobRequest{Kind: in.Kind, Roles: in.Roles, Users: in.Users, Cursor: in.Cursor})
}

// launchJob starts an on-demand job of p's: req (its kind and what it is
// about) gets an id and its caller, its run is queued, and the job runs in
// the jobs function (s.Jobs), else in this process. A job that cannot be
// started is recorded as failed and is the caller's error.
func (s *Service) launchJob(ctx context.Context, p *auth.Principal, req domain.JobRequest) (string, error) {
	req.ID, req.StartedBy, req.CallerKind = newIdentifier(), p.Name, string(p.Kind)
	if p.User != nil {
		req.CallerUserID = p.User.ID
	}
	if err := s.queueJobRun(ctx, domain.OnDemandJobName(req.ID)); err != nil {
		return "", err
	}
	s.log().InfoContext(ctx, "job started", "job", req.ID, "kind", req.Kind, "role", req.RoleID, "caller", p.LogID())
	if s.Jobs != nil {
		if err := s.Jobs.StartJob(ctx, req); err != nil {
			s.RecordJobRun(ctx, domain.OnDemandJobName(req.ID), s.now(), nil, err)
			return "", err
		}
		return req.ID, nil
	}
	go func() { _, _ = s.RunJob(context.WithoutCancel(ctx), req) }()
	return req.ID, nil
}

// queueJobRun writes the queued run of an on-demand job, which a runner
// claims.
func (s *Service) queueJobRun(ctx context.Context, name string) error {
	return s.Store.PutJobRun(ctx, domain.JobRun{Name: name, QueuedAt: s.now()})
}

// RunJob runs a queued on-demand job and records its outcome. A job
// whose run another runner claimed (Lambda retries an asynchronous
// invocation) is not run again: ran is false.
func (s *Service) RunJob(ctx context.Context, req domain.JobRequest) (ran bool, err error) {
	return s.runClaimed(ctx, domain.OnDemandJobName(req.ID), func(ctx context.Context) (any, error) { return s.runJob(ctx, req) })
}

// RunReconcileJob runs work as the on-demand reconcile run jobID, once,
// as RunJob does.
func (s *Service) RunReconcileJob(ctx context.Context, jobID string, work func(context.Context) (any, error)) (ran bool, err error) {
	return s.runClaimed(ctx, domain.ReconcileJobName(jobID), work)
}

// runClaimed claims the queued run called name, does its work and records
// the outcome; a run claimed before is left alone.
func (s *Service) runClaimed(ctx context.Context, name string, work func(context.Context) (any, error)) (bool, error) {
	run, ok, err := s.claimJobRun(ctx, name)
	if err != nil || !ok {
		return false, err
	}
	res, err := work(ctx)
	s.finishJobRun(ctx, run, res, err)
	return true, err
}

// claimJobRun claims the queued run called name for this runner.
func (s *Service) claimJobRun(ctx context.Context, name string) (domain.JobRun, bool, error) {
	// The invocation's deadline is kept with the claim: a runner stopped
	// at its time limit records nothing, and its run must not look
	// running for ever.
	runUntil, _ := ctx.Deadline()
	run, claimed, err := s.Store.ClaimJobRun(ctx, name, s.now(), runUntil)
	if err == nil && !claimed {
		s.log().InfoContext(ctx, "job already claimed; not run again", "job", name)
	}
	return run, claimed, err
}

// runJob does the work of one job kind as the super user who started it
// (the rules were checked when it started, and are checked again).
func (s *Service) runJob(ctx context.Context, req domain.JobRequest) (any, error) {
	p := &auth.Principal{Kind: auth.Kind(req.CallerKind), SuperUser: true, Name: req.StartedBy}
	if req.CallerUserID != 0 {
		p.User = &domain.User{ID: req.CallerUserID}
	}
	switch req.Kind {
	case domain.JobReminders:
		res, err := s.SendReminders(ctx)
		// The report counts the reminders per lead time: the job's item
		// keeps no e-mail addresses.
		counts := map[string]int{}
		for lead, sent := range res {
			counts[lead] = len(sent)
		}
		return map[string]any{"reminded": counts}, err
	case domain.JobCleanup:
		return s.Cleanup(ctx)
	case domain.JobDateCheck, domain.JobDateRepair:
		// Both read every item (a Scan, which only the jobs function may
		// do). The result lists the first repairs (entity, id, field,
		// dates: no personal data) and counts them all.
		apply := req.Kind == domain.JobDateRepair
		repairs, err := s.RepairDates(ctx, p, apply)
		if repairs == nil {
			repairs = []domain.DateRepair{}
		}
		res := map[string]any{"applied": apply, "count": len(repairs), "repairs": repairs[:min(len(repairs), maxListedDateRepairs)]}
		if apply {
			res["repaired"] = len(repairs)
		}
		return res, err
	case domain.JobIndexRepair:
		return s.repairAllIndexes(ctx, p, req.Cursor)
	case domain.JobPerformanceSeed:
		return s.PerformanceSeed(ctx, p, req.Roles, req.Users)
	case domain.JobLandingPageFix:
		return s.FixLandingPages(ctx, p)
	case domain.JobExpiry:
		// Queued by an expiry run with memberships left; queues the next
		// itself while it makes progress and some are still left.
		return s.RemoveExpired(ctx)
	case domain.JobRoleDeletion:
		// Queued by a role's deletion with members left; queues the next
		// itself when its time runs out.
		return s.resumeRoleDeletion(ctx, p, req.RoleID)
	case domain.JobRoleMove:
		// Queued by a role's move with members left; queues the next
		// itself when its time runs out.
		return s.resumeRoleMove(ctx, p, req.RoleID, req.Cursor)
	}
	return nil, fmt.Errorf("no job %q", req.Kind)
}

// repairAllIndexes repairs page after page until the store is done or
// the run's time is nearly up; the totals say how far it came (Next
// continues an unfinished run through POST index-repair).
func (s *Service) repairAllIndexes(ctx context.Context, p *auth.Principal, cursor string) (domain.IndexRepair, error) {
	var total domain.IndexRepair
	for {
		page, err := s.RepairIndexes(ctx, p, cursor, 100)
		if err != nil {
			return total, err
		}
		total.Roles += page.Roles
		total.RoleCountsRepaired += page.RoleCountsRepaired
		total.MembersIndexesBuilt += page.MembersIndexesBuilt
		total.Users += page.Users
		total.WordItemsWritten += page.WordItemsWritten
		total.SummariesWritten += page.SummariesWritten
		total.RoleMovesHandedOn += page.RoleMovesHandedOn
		total.Done, total.Next = page.Done, page.Next
		if page.Done || page.Next == "" {
			return total, nil
		}
		if deadline, ok := ctx.Deadline(); ok && time.Until(deadline) < 30*time.Second {
			return total, nil
		}
		cursor = page.Next
	}
}

// Job is the state of an on-demand job (super users only); its Summary is
// the result as JSON once it succeeded, or the error. NotFound for an
// unknown id.
func (s *Service) Job(ctx context.Context, p *auth.Principal, id string) (domain.JobRun, error) {
	if err := requireSuperUser(p); err != nil {
		return domain.JobRun{}, err
	}
	return s.jobRun(ctx, domain.OnDemandJobName(id), id)
}

// jobRun reads one on-demand run; NotFound when there is none.
func (s *Service) jobRun(ctx context.Context, name, id string) (domain.JobRun, error) {
	if id == "" {
		return domain.JobRun{}, domain.NotFoundf("no job %q", id)
	}
	runs, err := s.Store.GetJobRuns(ctx, []string{name})
	if err != nil {
		return domain.JobRun{}, err
	}
	if len(runs) == 0 {
		return domain.JobRun{}, domain.NotFoundf("no job %q", id)
	}
	return runs[0].AsOf(s.now()), nil
}
