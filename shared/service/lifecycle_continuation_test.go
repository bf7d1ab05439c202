package service_test

import (
	"context"
	"encoding/json"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/edu-invite/invite/shared/domain"
	"github.com/edu-invite/invite/shared/service"
)

// queuedJobs is a domain.JobStarter that keeps the jobs it is asked to
// start (the jobs function's asynchronous invocations), or refuses them.
type queuedJobs struct {
	mu     sync.Mutex
	jobs   []domain.JobRequest
	refuse error
}

func (q *queuedJobs) StartJob(_ context.Context, req domain.JobRequest) error {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.refuse != nil {
		return q.refuse
	}
	q.jobs = append(q.jobs, req)
	return nil
}

func (q *queuedJobs) take() []domain.JobRequest {
	q.mu.Lock()
	defer q.mu.Unlock()
	jobs := q.jobs
	q.jobs = nil
	return jobs
}

// TestExpiryContinuesInAJob: an expiry run that stops at its budget with
// memberships left queues an expiry job at once (its id in the result,
// its run queued for the jobs function), which removes more and queues
// the next while some are left, until none is: every membership goes once,
// each job's recorded result says how many were left, and the last queues
// nothing. Without a job starter, or when it refuses, the run reports what
// is left and queues nothing (the schedule goes on).
func TestExpiryContinuesInAJob(t *testing.T) {
	const cohort, budget = 30, 8
	s, _, _ := cohortService(t, cohort)
	s.Lifecycle.ExpiryLimit = budget
	ctx := context.Background()

	// Without a starter: the remaining count only.
	res, err := s.RemoveExpired(ctx)
	if err != nil {
		t.Fatal(err)
	}
	removed := res.UserRoles
	if res.Remaining != int64(cohort-removed) || res.Continuation != "" {
		t.Fatalf("without a job starter: %+v, want %d remaining and no continuation", res, cohort-removed)
	}
	// A starter that refuses: the same, and the run still succeeds.
	jobs := &queuedJobs{refuse: errors.New("lambda unavailable")}
	s.Jobs = jobs
	if res, err = s.RemoveExpired(ctx); err != nil || res.Continuation != "" || res.Remaining != int64(cohort-removed-res.UserRoles) {
		t.Fatalf("with a refusing starter: %+v, %v", res, err)
	}
	removed += res.UserRoles

	jobs.refuse = nil
	res, err = s.RemoveExpired(ctx)
	if err != nil {
		t.Fatal(err)
	}
	removed += res.UserRoles
	if res.Remaining != int64(cohort-removed) || res.Continuation == "" {
		t.Fatalf("scheduled run: %+v, want %d remaining and a continuation", res, cohort-removed)
	}
	queued := jobs.take()
	if len(queued) != 1 || queued[0].ID != res.Continuation || queued[0].Kind != domain.JobExpiry {
		t.Fatalf("queued %+v, want one expiry job %s", queued, res.Continuation)
	}
	for runs := 0; len(queued) > 0; runs++ {
		if runs > cohort/budget+1 {
			t.Fatalf("after %d continuations %d memberships are left", runs, cohort-removed)
		}
		req := queued[0]
		rctx, cancel := context.WithTimeout(ctx, 5*time.Minute)
		ran, err := s.RunJob(rctx, req)
		cancel()
		if err != nil || !ran {
			t.Fatalf("continuation %d: ran %v, %v", runs, ran, err)
		}
		run, err := s.Job(ctx, root, req.ID)
		if err != nil {
			t.Fatal(err)
		}
		var got service.ExpiryResult
		if err := json.Unmarshal([]byte(run.Summary), &got); err != nil || run.FinishedAt.IsZero() || run.Failed {
			t.Fatalf("continuation %d: recorded %+v (%v)", runs, run, err)
		}
		removed += got.UserRoles
		if got.UserRoles < 1 || got.UserRoles > budget || got.Remaining != int64(cohort-removed) {
			t.Errorf("continuation %d: %+v, want 1 to %d removed and %d remaining", runs, got, budget, cohort-removed)
		}
		queued = jobs.take()
		if (got.Remaining > 0) != (got.Continuation != "") || (got.Continuation != "" && (len(queued) != 1 || queued[0].ID != got.Continuation)) {
			t.Errorf("continuation %d: %+v queued %+v; want a next job exactly while some are left", runs, got, queued)
		}
		// A repeated invocation of the same job runs nothing.
		if ran, err := s.RunJob(ctx, req); ran || err != nil {
			t.Errorf("continuation %d run twice: %v, %v", runs, ran, err)
		}
	}
	if removed != cohort {
		t.Errorf("removed %d memberships, want %d", removed, cohort)
	}
	if left, err := s.Store.CountUserRolesEndingBetween(ctx, now, now.Add(30*24*time.Hour)); err != nil || left != 0 {
		t.Errorf("memberships left: %d, %v", left, err)
	}
}
