package service

import (
	"context"

	"github.com/edu-invite/invite/shared/auth"
	"github.com/edu-invite/invite/shared/domain"
)

// ReconcileInput is an on-demand reconcile run at one SP.
type ReconcileInput struct {
	SPID string
	// DryRun plans only; the API defaults it to true.
	DryRun bool
	// MaxDeleteShare overrides the configured guard (0: the configured).
	MaxDeleteShare float64
}

// Reconcile compares one SP with the service and repairs it, or with
// DryRun reports the plan (super users only). Errors: Invalid for a
// missing SP or a share outside (0, 1]; NotFound for an unknown SP;
// Unavailable when no reconciler is wired.
func (s *Service) Reconcile(ctx context.Context, p *auth.Principal, in ReconcileInput) (domain.ReconcileReport, error) {
	opts, err := s.checkReconcile(p, in)
	if err != nil {
		return domain.ReconcileReport{}, err
	}
	s.log().InfoContext(ctx, "reconcile requested", "sp", in.SPID, "dryRun", in.DryRun, "caller", p.Kind)
	return s.Reconciler.Reconcile(ctx, in.SPID, opts)
}

func (s *Service) checkReconcile(p *auth.Principal, in ReconcileInput) (domain.ReconcileOptions, error) {
	if err := requireSuperUser(p); err != nil {
		return domain.ReconcileOptions{}, err
	}
	if in.SPID == "" {
		return domain.ReconcileOptions{}, domain.Invalidf("sp is required")
	}
	if in.MaxDeleteShare < 0 || in.MaxDeleteShare > 1 {
		return domain.ReconcileOptions{}, domain.Invalidf("maxDeleteShare must be between 0 and 1")
	}
	if _, ok := s.Registry.ServiceProvider(in.SPID); !ok {
		return domain.ReconcileOptions{}, domain.NotFoundf("no SP %q", in.SPID)
	}
	if s.Reconciler == nil {
		return domain.ReconcileOptions{}, domain.Unavailablef("reconciling SPs is not available here")
	}
	share := in.MaxDeleteShare
	if share == 0 {
		share = s.ReconcileMaxDeleteShare
	}
	return domain.ReconcileOptions{DryRun: in.DryRun, MaxDeleteShare: share}, nil
}

// StartReconcile starts an on-demand reconcile run and returns its job id
// at once: a large SP takes longer than a request may. The run records
// its report as the job run domain.ReconcileJobName(id), which
// ReconcileJob reads. With a BackgroundReconciler (the API functions in
// AWS) the reconcile function runs it; otherwise it runs in this process.
// Errors as Reconcile's.
func (s *Service) StartReconcile(ctx context.Context, p *auth.Principal, in ReconcileInput) (string, error) {
	opts, err := s.checkReconcile(p, in)
	if err != nil {
		return "", err
	}
	id := newIdentifier()
	name := domain.ReconcileJobName(id)
	if err := s.queueJobRun(ctx, name); err != nil {
		return "", err
	}
	s.log().InfoContext(ctx, "reconcile started", "sp", in.SPID, "dryRun", in.DryRun, "job", id, "caller", p.Kind)
	if bg, ok := s.Reconciler.(domain.BackgroundReconciler); ok {
		if err := bg.StartReconcile(ctx, id, in.SPID, opts); err != nil {
			s.RecordJobRun(ctx, name, s.now(), nil, err)
			return "", err
		}
		return id, nil
	}
	go func() {
		_, _ = s.RunReconcileJob(context.WithoutCancel(ctx), id, func(ctx context.Context) (any, error) {
			return s.Reconciler.Reconcile(ctx, in.SPID, opts)
		})
	}()
	return id, nil
}

// ReconcileJob is the state of an on-demand reconcile run (super users
// only, domain.JobRun.Status); its Summary is the report as JSON, or the
// error. NotFound for an unknown id.
func (s *Service) ReconcileJob(ctx context.Context, p *auth.Principal, id string) (domain.JobRun, error) {
	if err := requireSuperUser(p); err != nil {
		return domain.JobRun{}, err
	}
	return s.jobRun(ctx, domain.ReconcileJobName(id), id)
}

// ReconcileSPs is the scheduled reconcile job: every SP in turn, with the
// configured guard. One SP that cannot be read does not stop the others;
// its error is in the result.
func (s *Service) ReconcileSPs(ctx context.Context, spIDs []string) ([]ReconcileOutcome, error) {
	if s.Reconciler == nil {
		return nil, domain.Unavailablef("reconciling SPs is not available here")
	}
	out := make([]ReconcileOutcome, 0, len(spIDs))
	for _, id := range spIDs {
		rep, err := s.Reconciler.Reconcile(ctx, id, domain.ReconcileOptions{MaxDeleteShare: s.ReconcileMaxDeleteShare})
		o := ReconcileOutcome{Report: rep}
		if err != nil {
			o.Error = err.Error()
			s.log().WarnContext(ctx, "reconcile failed", "sp", id, "error", err)
		} else if rep.Stopped != "" {
			s.log().WarnContext(ctx, "reconcile stopped by its guard", "sp", id, "reason", rep.Stopped)
		}
		out = append(out, o)
		if ctx.Err() != nil {
			return out, ctx.Err()
		}
	}
	return out, nil
}

// ReconcileOutcome is one SP's part of a scheduled reconcile run.
type ReconcileOutcome struct {
	Report domain.ReconcileReport
	Error  string
}
