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
