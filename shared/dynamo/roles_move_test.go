package dynamo_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/edu-invite/invite/shared/domain"
	"github.com/edu-invite/invite/shared/dynamo"
)

// TestRoleMoveConverges: a role moved to another organization takes its
// members' organization listings with it, in steps (MoveRoleMembers, from
// a cursor, within a budget), also when the move stopped after the role's
// transaction (a crash before the members were carried): the role stays
// marked, and moving the members again or the index repair finishes the
// move. A cursor of an earlier version of the role gives way to the
// update that made the later one.
func TestRoleMoveConverges(t *testing.T) {
	members := []string{"Marie Curie", "Pierre Curie"}
	for _, tc := range []struct {
		name   string
		finish func(t *testing.T, s *dynamo.Store)
	}{{
		name: "carried all at once",
		finish: func(t *testing.T, s *dynamo.Store) {
			next, err := s.MoveRoleMembers(ctx(t), 3, "", 0, time.Time{})
			must(t, err)
			if next != "" {
				t.Errorf("an unbounded step left cursor %q", next)
			}
		},
	}, {
		name: "carried one member per step",
		finish: func(t *testing.T, s *dynamo.Store) {
			next, err := s.MoveRoleMembers(ctx(t), 3, "", 1, time.Time{})
			must(t, err)
			if next == "" {
				t.Fatal("a step of one member of two answered done")
			}
			if got := orgListing(t, s, "org-3"); !slices.Equal(got, members[:1]) {
				t.Errorf("org-3 after one step: %q, want %q", got, members[:1])
			}
			for steps := 0; next != ""; steps++ {
				if steps > 2 {
					t.Fatal("the steps do not end")
				}
				next, err = s.MoveRoleMembers(ctx(t), 3, next, 1, time.Time{})
				must(t, err)
			}
		},
	}, {
		name: "a step past its stop carries nothing and hands on",
		finish: func(t *testing.T, s *dynamo.Store) {
			next, err := s.MoveRoleMembers(ctx(t), 3, "", 0, time.Now().Add(-time.Second))
			must(t, err)
			if next == "" || len(orgListing(t, s, "org-3")) != 0 {
				t.Fatalf("a step past its stop: cursor %q, org-3 %q", next, orgListing(t, s, "org-3"))
			}
			_, err = s.MoveRoleMembers(ctx(t), 3, next, 0, time.Time{})
			must(t, err)
		},
	}, {
		name: "a cursor of an earlier version gives way",
		finish: func(t *testing.T, s *dynamo.Store) {
			stale, err := s.MoveRoleMembers(ctx(t), 3, "", 0, time.Now().Add(-time.Second))
			must(t, err)
			r, err := s.GetRole(ctx(t), 3)
			must(t, err)
			r.Description = "changed during the move"
			must(t, s.UpdateRole(ctx(t), r, nil))
			if next, err := s.MoveRoleMembers(ctx(t), 3, stale, 0, time.Time{}); err != nil || next != "" || len(orgListing(t, s, "org-3")) != 0 {
				t.Fatalf("the stale cursor: %q, %v, org-3 %q; want done without work", next, err, orgListing(t, s, "org-3"))
			}
			pending, err := s.RoleOrganizationsPending(ctx(t), 3)
			must(t, err)
			if !pending {
				t.Fatal("the stale cursor cleared the later update's mark")
			}
			_, err = s.MoveRoleMembers(ctx(t), 3, "", 0, time.Time{})
			must(t, err)
		},
	}, {
		name:   "finished by the index repair",
		finish: func(t *testing.T, s *dynamo.Store) { repairAll(t, s, 2) },
	}} {
		t.Run(tc.name, func(t *testing.T) {
			s, _ := searchStore(t)
			createRole(t, s, 3, "org-5")
			grant(t, s, 1, 3, 31)
			grant(t, s, 2, 3, 32)
			moveRole(t, s, 3, "org-3", func(c context.Context, r domain.Role) error { return s.UpdateRole(c, r, nil) })
			pending, err := s.RoleOrganizationsPending(ctx(t), 3)
			must(t, err)
			if !pending {
				t.Fatal("a move leaves no mark on the role")
			}
			if got := orgListing(t, s, "org-5"); !slices.Equal(got, members) {
				t.Fatalf("org-5 after the role's transaction: %q, want the members still there", got)
			}
			tc.finish(t, s)
			if got := orgListing(t, s, "org-3"); !slices.Equal(got, members) {
				t.Errorf("org-3 after the move: %q, want %q", got, members)
			}
			if got := orgListing(t, s, "org-5"); len(got) != 0 {
				t.Errorf("org-5 after the move: %q, want none", got)
			}
			pending, err = s.RoleOrganizationsPending(ctx(t), 3)
			must(t, err)
			if pending {
				t.Error("the role is still marked after its move finished")
			}
			if next, err := s.MoveRoleMembers(ctx(t), 3, "", 0, time.Time{}); err != nil || next != "" {
				t.Errorf("moving the members of a finished move: %q, %v", next, err)
			}
		})
	}
}

// moveRole moves a role to another organization with update.
func moveRole(t *testing.T, s *dynamo.Store, roleID int64, org string, update func(context.Context, domain.Role) error) {
	t.Helper()
	r, err := s.GetRole(ctx(t), roleID)
	must(t, err)
	r.OrganizationGUID = org
	must(t, update(ctx(t), r))
}

// carryMembers finishes a role's move as the service does after the
// update (the request's budget and the role move job), all at once.
func carryMembers(t *testing.T, s *dynamo.Store, roleID int64) {
	t.Helper()
	next, err := s.MoveRoleMembers(ctx(t), roleID, "", 0, time.Time{})
	must(t, err)
	if next != "" {
		t.Fatalf("an unbounded move of role %d's members left cursor %q", roleID, next)
	}
}
