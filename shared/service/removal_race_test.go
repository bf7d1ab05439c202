package service_test

import (
	"context"
	"testing"

	"github.com/edu-invite/invite/shared/auth"
	"github.com/edu-invite/invite/shared/domain"
	"github.com/edu-invite/invite/shared/service"
)

// interleavingStore runs between, once, right after the first listing of a
// user's memberships it serves: another removal that completes between a
// removal's read of the memberships and its write.
type interleavingStore struct {
	domain.Store
	between func()
}

func (s *interleavingStore) ListUserRolesOfUser(ctx context.Context, userID int64) ([]domain.UserRole, error) {
	urs, err := s.Store.ListUserRolesOfUser(ctx, userID)
	if run := s.between; run != nil && err == nil {
		s.between = nil
		run()
	}
	return urs, err
}

// Two removals of one user's two memberships, each reading the other's
// membership before the other is gone, must not both keep the user: the
// one that commits second finds the user changed, reads again and deletes
// the user with its last membership. Both orders: a role deletion
// interleaved by a member's removal (DELETE /user_roles), and a member's
// removal interleaved by a role deletion.
func TestConcurrentRemovalsOfOneUsersLastMembershipsDeleteTheUser(t *testing.T) {
	for _, tc := range []struct {
		name string
		// first runs on the interleaving store, second completes in between.
		first, second func(s *service.Service, user domain.User, deleted, removed domain.Role) error
	}{
		{
			name: "role deletion interleaved by a membership removal",
			first: func(s *service.Service, _ domain.User, deleted, _ domain.Role) error {
				return s.DeleteRole(context.Background(), root, deleted.ID)
			},
			second: func(s *service.Service, user domain.User, _, removed domain.Role) error {
				return removeMembershipOf(s, user, removed)
			},
		},
		{
			name: "membership removal interleaved by a role deletion",
			first: func(s *service.Service, user domain.User, _, removed domain.Role) error {
				return removeMembershipOf(s, user, removed)
			},
			second: func(s *service.Service, _ domain.User, deleted, _ domain.Role) error {
				return s.DeleteRole(context.Background(), root, deleted.ID)
			},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, _ := newService(t)
			ctx := context.Background()
			deleted, err := s.CreateRole(ctx, root, wikiRole("Deleted"))
			if err != nil {
				t.Fatal(err)
			}
			removed, err := s.CreateRole(ctx, root, wikiRole("Left"))
			if err != nil {
				t.Fatal(err)
			}
			carol := acceptInto(t, s, auth.Person{Sub: "sub-carol", Email: "carol@example.org", GivenName: "Carol", FamilyName: "Two", Name: "Carol Two"}, []int64{deleted.ID, removed.ID})

			inner := s.Store
			other := *s // the concurrent caller, on the plain store
			var secondErr error
			s.Store = &interleavingStore{Store: inner, between: func() { secondErr = tc.second(&other, carol, deleted, removed) }}
			firstErr := tc.first(s, carol, deleted, removed)
			s.Store = inner
			if firstErr != nil || secondErr != nil {
				t.Fatalf("first: %v, second: %v", firstErr, secondErr)
			}
			if urs, err := inner.ListUserRolesOfUser(ctx, carol.ID); err != nil || len(urs) != 0 {
				t.Fatalf("memberships left: %+v, %v", urs, err)
			}
			if u, err := inner.GetUser(ctx, carol.ID); !domain.IsNotFound(err) {
				t.Errorf("user without memberships: %+v, %v; want deleted", u, err)
			}
			if _, err := inner.GetUserBySub(ctx, carol.Sub); !domain.IsNotFound(err) {
				t.Errorf("by sub: %v, want not found", err)
			}
		})
	}
}

// removeMembershipOf removes the user's membership of role, whole.
func removeMembershipOf(s *service.Service, user domain.User, role domain.Role) error {
	ctx := context.Background()
	ur, err := s.Store.GetUserRole(ctx, user.ID, role.ID)
	if err != nil {
		return err
	}
	_, err = s.RemoveUserRole(ctx, root, ur.ID, false)
	return err
}
