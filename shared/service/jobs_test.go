package service_test

import (
	"context"
	"errors"
	"sync"
	"testing"

	"github.com/edu-invite/invite/shared/auth"
	"github.com/edu-invite/invite/shared/domain"
	"github.com/edu-invite/invite/shared/service"
)

// recordingStarter is the jobs function's part: it keeps what it was asked
// to run, or refuses.
type recordingStarter struct {
	mu      sync.Mutex
	started []domain.JobRequest
	refuse  error
}

func (r *recordingStarter) StartJob(_ context.Context, req domain.JobRequest) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.started = append(r.started, req)
	return r.refuse
}

// With a job starter (the system function in AWS) a job is queued and
// handed over whole, not run here; the runner's first delivery runs it and
// a second does nothing. A starter that refuses makes the job failed and
// the request's error. Checks come before anything is queued.
func TestStartJobHandsTheJobToTheRunnerOnce(t *testing.T) {
	s, _ := newService(t)
	ctx := context.Background()
	starter := &recordingStarter{}
	s.Jobs = starter
	super := &auth.Principal{Kind: auth.KindPerson, SuperUser: true, Name: "admin@example.org", User: &domain.User{ID: 42}}

	id, err := s.StartJob(ctx, super, service.JobInput{Kind: domain.JobCleanup})
	if err != nil {
		t.Fatal(err)
	}
	if len(starter.started) != 1 {
		t.Fatalf("started %d jobs", len(starter.started))
	}
	req := starter.started[0]
	if req.ID != id || req.Kind != domain.JobCleanup || req.StartedBy != "admin@example.org" || req.CallerUserID != 42 {
		t.Fatalf("request handed over %+v", req)
	}
	if run, err := s.Job(ctx, super, id); err != nil || run.Status() != domain.JobQueued {
		t.Fatalf("before the runner: %+v %v, want queued", run, err)
	}
	for i, wantRan := range []bool{true, false} {
		ran, err := s.RunJob(ctx, req)
		if err != nil || ran != wantRan {
			t.Fatalf("delivery %d: ran %v, %v; want %v", i+1, ran, err, wantRan)
		}
	}
	if run, _ := s.Job(ctx, super, id); run.Status() != domain.JobSucceeded || run.Summary == "" {
		t.Fatalf("after the runner: %+v", run)
	}

	starter.refuse = domain.Unavailablef("rate exceeded")
	if _, err := s.StartJob(ctx, super, service.JobInput{Kind: domain.JobDateRepair}); domain.KindOf(err) != domain.KindUnavailable {
		t.Fatalf("a refused start: %v", err)
	}
	failed := starter.started[len(starter.started)-1]
	if run, _ := s.Job(ctx, super, failed.ID); run.Status() != domain.JobFailed {
		t.Errorf("a job its runner never got: %+v, want failed", run)
	}

	before := len(starter.started)
	for _, tc := range []struct {
		p    *auth.Principal
		in   service.JobInput
		kind domain.ErrorKind
	}{
		{&auth.Principal{Kind: auth.KindPerson, Name: "guest"}, service.JobInput{Kind: domain.JobCleanup}, domain.KindForbidden},
		{super, service.JobInput{Kind: "format-disk"}, domain.KindInvalid},
		{super, service.JobInput{Kind: domain.JobPerformanceSeed, Roles: 1}, domain.KindForbidden}, // not enabled here
	} {
		if _, err := s.StartJob(ctx, tc.p, tc.in); domain.KindOf(err) != tc.kind {
			t.Errorf("%+v: %v, want %v", tc.in, err, tc.kind)
		}
	}
	if len(starter.started) != before {
		t.Errorf("refused jobs were started")
	}
}

// An on-demand reconcile run delivered twice to the reconcile function
// runs once.
func TestReconcileJobRunsOnce(t *testing.T) {
	s, _ := newService(t)
	ctx := context.Background()
	bg := &backgroundReconciler{}
	s.Reconciler = bg
	const sp = "sp-a"
	id, err := s.StartReconcile(ctx, root, service.ReconcileInput{SPID: sp, DryRun: true})
	if err != nil {
		t.Fatal(err)
	}
	if bg.started != id {
		t.Fatalf("the reconcile function was asked for %q, want %q", bg.started, id)
	}
	runs := 0
	work := func(context.Context) (any, error) { runs++; return domain.ReconcileReport{SP: sp}, nil }
	for range 2 {
		if _, err := s.RunReconcileJob(ctx, id, work); err != nil {
			t.Fatal(err)
		}
	}
	if runs != 1 {
		t.Errorf("the reconcile ran %d times, want once", runs)
	}
	if run, err := s.ReconcileJob(ctx, root, id); err != nil || run.Status() != domain.JobSucceeded {
		t.Errorf("job %+v %v", run, err)
	}
	if _, err := s.RunReconcileJob(ctx, "never-started", work); err != nil || runs != 1 {
		t.Errorf("a job never started ran: %v", err)
	}
}

// backgroundReconciler stands for the reconcile function: it is only
// told to start.
type backgroundReconciler struct{ started string }

func (b *backgroundReconciler) Reconcile(context.Context, string, domain.ReconcileOptions) (domain.ReconcileReport, error) {
	return domain.ReconcileReport{}, errors.New("not synchronously")
}

func (b *backgroundReconciler) StartReconcile(_ context.Context, jobID, _ string, _ domain.ReconcileOptions) error {
	b.started = jobID
	return nil
}
