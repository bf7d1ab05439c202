package dynamo_test

import (
	"context"
	"slices"
	"testing"

	"github.com/edu-invite/invite/shared/domain"
	"github.com/edu-invite/invite/shared/dynamo"
)

// TestRoleMoveConverges: a role moved to another organization takes its
// members' organization listings with it, also when the move stopped after
// the role's transaction (a crash before the members were rebuilt): the
// role stays marked, and the next update of the role or the index repair
// finishes the move.
func TestRoleMoveConverges(t *testing.T) {
	members := []string{"Marie Curie", "Pierre Curie"}
	for _, tc := range []struct {
		name   string
		move   func(t *testing.T, s *dynamo.Store) // moves role 3 from org-5 to org-3
		finish func(t *testing.T, s *dynamo.Store)
	}{{
		name: "the move finishes itself",
		move: func(t *testing.T, s *dynamo.Store) {
			moveRole(t, s, 3, "org-3", func(c context.Context, r domain.Role) error { return s.UpdateRole(c, r, nil) })
		},
	}, {
		name: "a stopped move is finished by the next update of the role",
		move: func(t *testing.T, s *dynamo.Store) { moveRole(t, s, 3, "org-3", s.UpdateRoleStoppingBeforeMembers) },
		finish: func(t *testing.T, s *dynamo.Store) {
			r, err := s.GetRole(ctx(t), 3)
			must(t, err)
			r.Description = "renamed after the crash"
			must(t, s.UpdateRole(ctx(t), r, nil))
		},
	}, {
		name:   "a stopped move is finished by the index repair",
		move:   func(t *testing.T, s *dynamo.Store) { moveRole(t, s, 3, "org-3", s.UpdateRoleStoppingBeforeMembers) },
		finish: func(t *testing.T, s *dynamo.Store) { repairAll(t, s, 2) },
	}} {
		t.Run(tc.name, func(t *testing.T) {
			s, _ := searchStore(t)
			createRole(t, s, 3, "org-5")
			grant(t, s, 1, 3, 31)
			grant(t, s, 2, 3, 32)
			tc.move(t, s)
			if tc.finish != nil {
				pending, err := s.RoleOrganizationsPending(ctx(t), 3)
				must(t, err)
				if !pending {
					t.Fatal("a stopped move leaves no mark on the role")
				}
				if got := orgListing(t, s, "org-5"); !slices.Equal(got, members) {
					t.Fatalf("org-5 after the stopped move: %q, want the members still there (the crash's state)", got)
				}
				tc.finish(t, s)
			}
			if got := orgListing(t, s, "org-3"); !slices.Equal(got, members) {
				t.Errorf("org-3 after the move: %q, want %q", got, members)
			}
			if got := orgListing(t, s, "org-5"); len(got) != 0 {
				t.Errorf("org-5 after the move: %q, want none", got)
			}
			pending, err := s.RoleOrganizationsPending(ctx(t), 3)
			must(t, err)
			if pending {
				t.Error("the role is still marked after its move finished")
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
