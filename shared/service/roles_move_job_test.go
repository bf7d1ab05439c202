package service_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/edu-invite/invite/shared/auth"
	"github.com/edu-invite/invite/shared/domain"
)

// TestMovingALargeRoleHandsItsMembersToAJob: a role with more members than
// its move's request carries (RoleMoveBudget, low here) moves at once; the
// request carries only the budget into the new organization's listing and
// hands the rest to a role move job, which carries every other member or,
// when its time runs out, hands on to the next job. While the job runs,
// the old organization's search shows none of the moved role: its members
// not carried yet are left out, and a member who keeps a role of the old
// organization is shown with that role only.
func TestMovingALargeRoleHandsItsMembersToAJob(t *testing.T) {
	s, _ := newService(t)
	starter := &recordingStarter{}
	s.Jobs, s.RoleMoveBudget = starter, 5
	ctx := context.Background()
	role := createWikiRole(t, s, "Cohort 2026")
	stay := createWikiRole(t, s, "Library")
	seed := domain.Seed{}
	const members = 12
	for i := range int64(members) {
		uid := 830_001 + i
		seed.Users = append(seed.Users, domain.User{ID: uid, Sub: fmt.Sprint("sub-mover-", uid), Name: fmt.Sprintf("Mover %02d", i),
			Email: fmt.Sprint("mover", uid, "@example.org"), CreatedAt: now})
		seed.UserRoles = append(seed.UserRoles, domain.UserRole{ID: 840_001 + i, UserID: uid, RoleID: role.ID, Authority: domain.Guest, CreatedAt: now})
	}
	// The last mover also holds a role that stays in the old organization.
	seed.UserRoles = append(seed.UserRoles, domain.UserRole{ID: 840_100, UserID: 830_001 + members - 1, RoleID: stay.ID, Authority: domain.Guest, CreatedAt: now})
	if err := s.Store.Seed(ctx, seed); err != nil {
		t.Fatal(err)
	}
	listed := func(org string) int64 {
		t.Helper()
		page, err := s.Store.SearchUsers(ctx, domain.UserSearch{OrganizationGUID: org, Page: domain.PageRequest{Size: 50}})
		if err != nil {
			t.Fatal(err)
		}
		if int64(len(page.Items)) != page.Total {
			t.Fatalf("%s's listing: %d items, total %d", org, len(page.Items), page.Total)
		}
		return page.Total
	}
	oldAdmin := &auth.Principal{Kind: auth.KindAPIToken, OrganizationGUID: "org-test", Name: "old organization's token"}
	newAdmin := &auth.Principal{Kind: auth.KindAPIToken, OrganizationGUID: "org-new", Name: "new organization's token"}
	// shown is what an organization's caller sees: each person with the
	// names of the roles shown, by the API's search and the console's.
	shown := func(p *auth.Principal) map[string][]string {
		t.Helper()
		page, err := s.SearchUsers(ctx, p, domain.PageRequest{Size: 50})
		if err != nil {
			t.Fatal(err)
		}
		out := map[string][]string{}
		for _, u := range page.Items {
			for _, r := range u.Roles {
				out[u.User.Name] = append(out[u.User.Name], r.RoleName)
			}
			if len(u.Roles) == 0 {
				out[u.User.Name] = nil
			}
		}
		people, err := s.SearchPeople(ctx, p, domain.PageRequest{Size: 50})
		if err != nil {
			t.Fatal(err)
		}
		if len(people.Items) != len(page.Items) {
			t.Errorf("%s: the console shows %d people, the API %d", p.Name, len(people.Items), len(page.Items))
		}
		for _, u := range people.Items {
			if _, ok := out[u.Name]; !ok {
				t.Errorf("%s: the console shows %s, the API does not", p.Name, u.Name)
			}
		}
		return out
	}
	lastMover := fmt.Sprintf("Mover %02d", members-1)
	check := func(when string, carried int) {
		t.Helper()
		if n := listed("org-new"); n != int64(carried) {
			t.Errorf("%s: org-new lists %d, want %d carried", when, n, carried)
		}
		old := shown(oldAdmin)
		if len(old) != 1 || len(old[lastMover]) != 1 || old[lastMover][0] != "Library" {
			t.Errorf("%s: org-test's search shows %v, want only %s with Library", when, old, lastMover)
		}
		for name, roles := range shown(newAdmin) {
			if len(roles) != 1 || roles[0] != "Cohort 2026" {
				t.Errorf("%s: org-new shows %s with %v, want Cohort 2026 only", when, name, roles)
			}
		}
	}

	in := wikiRole("Cohort 2026")
	in.OrganizationGUID = "org-new"
	if _, err := s.UpdateRole(ctx, root, role.ID, in); err != nil {
		t.Fatalf("moving a role past the request's budget: %v", err)
	}
	if got, err := s.Store.GetRole(ctx, role.ID); err != nil || got.OrganizationGUID != "org-new" {
		t.Fatalf("the role after its move: %+v, %v", got, err)
	}
	check("after the request", 5)
	if len(starter.started) != 1 || starter.started[0].Kind != domain.JobRoleMove || starter.started[0].RoleID != role.ID || starter.started[0].Cursor == "" {
		t.Fatalf("jobs started: %+v, want one role move of role %d with a cursor", starter.started, role.ID)
	}
	// A job whose time is nearly up carries nothing and hands on.
	short, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	if ran, err := s.RunJob(short, starter.started[0]); !ran || err != nil {
		t.Fatalf("the job near its deadline: ran %v, %v", ran, err)
	}
	if len(starter.started) != 2 || starter.started[1].Cursor != starter.started[0].Cursor {
		t.Fatalf("after a job without time: jobs %+v, want a continuation from the same cursor", starter.started)
	}
	check("after a job without time", 5)
	if ran, err := s.RunJob(ctx, starter.started[1]); !ran || err != nil {
		t.Fatalf("the continuation: ran %v, %v", ran, err)
	}
	check("after the job", members)
	if n := listed("org-test"); n != 1 {
		t.Errorf("org-test's index lists %d after the job, want the one member who keeps a role there", n)
	}
	if len(starter.started) != 2 {
		t.Errorf("jobs started: %d, want no third", len(starter.started))
	}
	job, err := s.Job(ctx, root, starter.started[1].ID)
	if err != nil || job.Status() != domain.JobSucceeded {
		t.Errorf("the continuation's record: %+v, %v; want succeeded", job, err)
	}
	// The move is finished: a later update of the role starts no job.
	in.Description = "after the move"
	if _, err := s.UpdateRole(ctx, root, role.ID, in); err != nil || len(starter.started) != 2 {
		t.Errorf("an update after the move: %v, jobs %d; want none started", err, len(starter.started))
	}
}

// TestIndexRepairHandsALargeMoveOnToAJob: the index repair finds a role
// marked mid-move whose members were not carried (its role move job never
// ran) and carries only a bounded number of them in its page of roles;
// the rest goes to a role move job, which carries every other member and
// clears the mark. A page of roles therefore costs the same whatever the
// size of a role moved in it.
func TestIndexRepairHandsALargeMoveOnToAJob(t *testing.T) {
	s, _ := newService(t)
	starter := &recordingStarter{}
	s.Jobs, s.RoleMoveBudget = starter, 5
	ctx := context.Background()
	role := createWikiRole(t, s, "Cohort repaired")
	seed := domain.Seed{}
	const members = 80 // more than the request's 5 and the repair's 50
	for i := range int64(members) {
		uid := 890_001 + i
		seed.Users = append(seed.Users, domain.User{ID: uid, Sub: fmt.Sprint("sub-repaired-", uid), Name: fmt.Sprintf("Repaired %02d", i),
			Email: fmt.Sprint("repaired", uid, "@example.org"), CreatedAt: now})
		seed.UserRoles = append(seed.UserRoles, domain.UserRole{ID: 900_001 + i, UserID: uid, RoleID: role.ID, Authority: domain.Guest, CreatedAt: now})
	}
	if err := s.Store.Seed(ctx, seed); err != nil {
		t.Fatal(err)
	}
	listed := func(org string) int64 {
		t.Helper()
		page, err := s.Store.SearchUsers(ctx, domain.UserSearch{OrganizationGUID: org, Page: domain.PageRequest{Size: 100}})
		if err != nil {
			t.Fatal(err)
		}
		return page.Total
	}
	in := wikiRole("Cohort repaired")
	in.OrganizationGUID = "org-repaired"
	if _, err := s.UpdateRole(ctx, root, role.ID, in); err != nil {
		t.Fatal(err)
	}
	if len(starter.started) != 1 || listed("org-repaired") != 5 {
		t.Fatalf("after the move's request: jobs %+v, org-repaired lists %d; want one job (never run here) and 5", starter.started, listed("org-repaired"))
	}
	// The request's job is lost; the index repair finds the mark.
	res, err := s.RepairIndexes(ctx, root, "", 100)
	if err != nil {
		t.Fatal(err)
	}
	if n := listed("org-repaired"); n <= 5 || n >= members {
		t.Errorf("after the repair's page org-repaired lists %d, want more than the request's 5 and fewer than all %d", n, members)
	}
	if res.RoleMovesHandedOn != 1 || len(starter.started) != 2 {
		t.Fatalf("the repair handed on %d moves, jobs %+v; want one role move job", res.RoleMovesHandedOn, starter.started)
	}
	job := starter.started[1]
	if job.Kind != domain.JobRoleMove || job.RoleID != role.ID || job.Cursor == "" {
		t.Fatalf("the repair's job %+v, want a role move of role %d with a cursor", job, role.ID)
	}
	if ran, err := s.RunJob(ctx, job); !ran || err != nil {
		t.Fatalf("the role move job: ran %v, %v", ran, err)
	}
	if n, old := listed("org-repaired"), listed("org-test"); n != members || old != 0 {
		t.Errorf("after the job: org-repaired lists %d, org-test %d; want all %d and none", n, old, members)
	}
	// The move is finished: the next repair hands nothing on.
	if res, err := s.RepairIndexes(ctx, root, "", 100); err != nil || res.RoleMovesHandedOn != 0 || len(starter.started) != 2 {
		t.Errorf("a repair after the move: %+v, %v, jobs %d; want nothing handed on", res, err, len(starter.started))
	}
}
