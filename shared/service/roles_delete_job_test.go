package service_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/edu-invite/invite/shared/domain"
)

// TestDeletingALargeRoleHandsItsMembersToAJob: a role with more members
// than its DELETE request removes (RoleDeletionBudget, low here) is
// deleted at once and the request removes only the budget; the rest goes
// to a role deletion job in the jobs function, which removes every other
// member and finishes the deletion, or, when its time runs out, hands the
// rest to the next job. No member is left behind, none refused.
func TestDeletingALargeRoleHandsItsMembersToAJob(t *testing.T) {
	s, _ := newService(t)
	starter := &recordingStarter{}
	s.Jobs, s.RoleDeletionBudget = starter, 5
	ctx := context.Background()
	role := createWikiRole(t, s, "Cohort 2026")
	seed := domain.Seed{}
	const members = 12
	for i := range int64(members) {
		uid := 810_001 + i
		seed.Users = append(seed.Users, domain.User{ID: uid, Sub: fmt.Sprint("sub-cohort-", uid), Name: fmt.Sprintf("Cohort %02d", i),
			Email: fmt.Sprint("cohort", uid, "@example.org"), CreatedAt: now})
		seed.UserRoles = append(seed.UserRoles, domain.UserRole{ID: 820_001 + i, UserID: uid, RoleID: role.ID, Authority: domain.Guest, CreatedAt: now})
	}
	if err := s.Store.Seed(ctx, seed); err != nil {
		t.Fatal(err)
	}
	left := func() int64 {
		t.Helper()
		counts, err := s.Store.CountMembersOfRoles(ctx, []int64{role.ID})
		if err != nil {
			t.Fatal(err)
		}
		return counts[role.ID]
	}
	if err := s.DeleteRole(ctx, root, role.ID); err != nil {
		t.Fatalf("deleting a role past the request's budget: %v", err)
	}
	if _, err := s.Store.GetRole(ctx, role.ID); !domain.IsNotFound(err) {
		t.Errorf("the role after its DELETE: %v, want not found", err)
	}
	if n := left(); n != members-5 {
		t.Errorf("%d members left after the request, want %d (its budget removed)", n, members-5)
	}
	if len(starter.started) != 1 || starter.started[0].Kind != domain.JobRoleDeletion || starter.started[0].RoleID != role.ID {
		t.Fatalf("jobs started: %+v, want one role deletion of role %d", starter.started, role.ID)
	}
	// A job whose time is nearly up removes nothing and hands on.
	short, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	if ran, err := s.RunJob(short, starter.started[0]); !ran || err != nil {
		t.Fatalf("the job near its deadline: ran %v, %v", ran, err)
	}
	if n := left(); n != members-5 || len(starter.started) != 2 || starter.started[1].RoleID != role.ID {
		t.Fatalf("after a job without time: %d left, jobs %+v; want %d and a continuation", n, starter.started, members-5)
	}
	if ran, err := s.RunJob(ctx, starter.started[1]); !ran || err != nil {
		t.Fatalf("the continuation: ran %v, %v", ran, err)
	}
	if n := left(); n != 0 {
		t.Errorf("%d members left after the job, want none", n)
	}
	if _, err := s.Store.GetRoleDeletion(ctx, role.ID); !domain.IsNotFound(err) {
		t.Errorf("the deletion after the job: %v, want finished", err)
	}
	if len(starter.started) != 2 {
		t.Errorf("jobs started: %d, want no third", len(starter.started))
	}
	job, err := s.Job(ctx, root, starter.started[1].ID)
	if err != nil || job.Status() != domain.JobSucceeded {
		t.Errorf("the continuation's record: %+v, %v; want succeeded", job, err)
	}
}

// TestConcurrentDeletionsOfALargeRoleAnswerAlike: two DELETEs of one
// large role at the same moment (a double click, a client's retry while
// the first is still running) both answer as a deletion does, whichever
// wins the role's item: the loser finds the deletion under way and goes
// on with it or leaves it to the remover ahead of it, never answering a
// conflict. The jobs they start remove every member and finish the
// deletion; a DELETE after that answers the role as missing.
func TestConcurrentDeletionsOfALargeRoleAnswerAlike(t *testing.T) {
	s, _ := newService(t)
	starter := &recordingStarter{}
	s.Jobs, s.RoleDeletionBudget = starter, 5
	ctx := context.Background()
	const members = 30
	for round := range 4 {
		role := createWikiRole(t, s, fmt.Sprint("Concurrent cohort ", round))
		seed := domain.Seed{}
		for i := range int64(members) {
			uid := 850_001 + int64(round)*100 + i
			seed.Users = append(seed.Users, domain.User{ID: uid, Sub: fmt.Sprint("sub-twice-", uid), Name: fmt.Sprintf("Twice %d %02d", round, i),
				Email: fmt.Sprint("twice", uid, "@example.org"), CreatedAt: now})
			seed.UserRoles = append(seed.UserRoles, domain.UserRole{ID: 860_001 + int64(round)*100 + i, UserID: uid, RoleID: role.ID,
				Authority: domain.Guest, CreatedAt: now})
		}
		if err := s.Store.Seed(ctx, seed); err != nil {
			t.Fatal(err)
		}
		starter.mu.Lock()
		firstJob := len(starter.started)
		starter.mu.Unlock()
		start := make(chan struct{})
		errs := make(chan error, 2)
		for range 2 {
			go func() {
				<-start
				errs <- s.DeleteRole(ctx, root, role.ID)
			}()
		}
		close(start)
		for range 2 {
			if err := <-errs; err != nil {
				t.Errorf("round %d: a concurrent DELETE of a role being deleted answered %v (kind %v), want what the first answers", round, err, domain.KindOf(err))
			}
		}
		// The jobs the requests started run at the same time, as the jobs
		// function runs them, and so do those they start.
		for {
			starter.mu.Lock()
			jobs := starter.started[firstJob:]
			firstJob = len(starter.started)
			starter.mu.Unlock()
			if len(jobs) == 0 {
				break
			}
			ran := make(chan error, len(jobs))
			for _, job := range jobs {
				if job.Kind != domain.JobRoleDeletion || job.RoleID != role.ID {
					t.Fatalf("round %d: job %+v, want a deletion of role %d", round, job, role.ID)
				}
				go func() {
					_, err := s.RunJob(ctx, job)
					ran <- err
				}()
			}
			for range jobs {
				if err := <-ran; err != nil {
					t.Errorf("round %d: a role deletion job: %v", round, err)
				}
			}
		}
		counts, err := s.Store.CountMembersOfRoles(ctx, []int64{role.ID})
		if err != nil || counts[role.ID] != 0 {
			t.Errorf("round %d: %d members left (%v), want none", round, counts[role.ID], err)
		}
		if page, _, err := s.Store.ListUserRolesOfRole(ctx, role.ID, "", 100); err != nil || len(page) != 0 {
			t.Errorf("round %d: %d memberships listed (%v), want none", round, len(page), err)
		}
		if _, err := s.Store.GetRoleDeletion(ctx, role.ID); !domain.IsNotFound(err) {
			t.Errorf("round %d: the deletion afterwards: %v, want finished", round, err)
		}
		if err := s.DeleteRole(ctx, root, role.ID); !domain.IsNotFound(err) {
			t.Errorf("round %d: a DELETE after the deletion finished: %v, want not found", round, err)
		}
	}
}

// removerAheadStore is the table as a DELETE sees it while another
// remover of the same role (the first DELETE's job) is ahead of it: the
// members index lists a few members at a time, and the remover ahead
// takes each listed member before this one gets to it.
type removerAheadStore struct {
	domain.Store
	shown int // members listed per listing
}

func (s *removerAheadStore) ListUserRolesOfRole(ctx context.Context, roleID int64, token string, limit int) ([]domain.UserRole, string, error) {
	page, next, err := s.Store.ListUserRolesOfRole(ctx, roleID, token, limit)
	if err != nil || len(page) == 0 {
		return page, next, err
	}
	page = page[:min(len(page), s.shown)]
	if err := s.Store.DeleteUserRoles(ctx, page, nil, nil); err != nil {
		return nil, "", err
	}
	return page, next, nil
}

// TestRoleDeletionBehindAnotherRemover: a DELETE of a role whose
// deletion is under way, trailing the remover ahead of it (the first
// DELETE's job), finds each member it lists already removed. It answers
// as the first DELETE did and hands the rest on as at its budget, rather
// than answering a conflict once its patience with the index runs out;
// and a job trailing another remover goes on at the other's pace until
// none is left, rather than failing.
func TestRoleDeletionBehindAnotherRemover(t *testing.T) {
	s, _ := newService(t)
	starter := &recordingStarter{}
	s.Jobs, s.RoleDeletionBudget = starter, 5
	ctx := context.Background()
	role := createWikiRole(t, s, "Cohort behind")
	seed := domain.Seed{}
	const members = 100
	for i := range int64(members) {
		uid := 870_001 + i
		seed.Users = append(seed.Users, domain.User{ID: uid, Sub: fmt.Sprint("sub-behind-", uid), Name: fmt.Sprintf("Behind %02d", i),
			Email: fmt.Sprint("behind", uid, "@example.org"), CreatedAt: now})
		seed.UserRoles = append(seed.UserRoles, domain.UserRole{ID: 880_001 + i, UserID: uid, RoleID: role.ID, Authority: domain.Guest, CreatedAt: now})
	}
	if err := s.Store.Seed(ctx, seed); err != nil {
		t.Fatal(err)
	}
	if err := s.DeleteRole(ctx, root, role.ID); err != nil || len(starter.started) != 1 {
		t.Fatalf("the first DELETE: %v, jobs %+v; want one job", err, starter.started)
	}
	inner := s.Store
	behind := &removerAheadStore{Store: inner, shown: 5}
	s.Store = behind
	if err := s.DeleteRole(ctx, root, role.ID); err != nil {
		t.Errorf("a DELETE behind the first's job answered %v (kind %v), want what the first answered", err, domain.KindOf(err))
	}
	if len(starter.started) != 2 || starter.started[1].Kind != domain.JobRoleDeletion {
		t.Errorf("jobs: %+v, want the DELETE behind to hand the rest on as at its budget", starter.started)
	}
	// The first DELETE's job, behind another remover (as the second
	// DELETE's job may be), goes on until none is left.
	if ran, err := s.RunJob(ctx, starter.started[0]); !ran || err != nil {
		t.Errorf("a job behind another remover: ran %v, %v; want it to end without error", ran, err)
	}
	s.Store = inner
	for _, job := range starter.started[1:] {
		if ran, err := s.RunJob(ctx, job); !ran || err != nil {
			t.Fatalf("the second DELETE's job: ran %v, %v", ran, err)
		}
	}
	counts, err := s.Store.CountMembersOfRoles(ctx, []int64{role.ID})
	if err != nil || counts[role.ID] != 0 {
		t.Errorf("%d members left (%v), want none", counts[role.ID], err)
	}
	if _, err := s.Store.GetRoleDeletion(ctx, role.ID); !domain.IsNotFound(err) {
		t.Errorf("the deletion after the jobs: %v, want finished", err)
	}
	if len(starter.started) != 2 {
		t.Errorf("jobs: %d, want no third", len(starter.started))
	}
}
