package service_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/edu-invite/invite/shared/auth"
	"github.com/edu-invite/invite/shared/domain"
	"github.com/edu-invite/invite/shared/dynamo"
	"github.com/edu-invite/invite/shared/service"
	"github.com/edu-invite/invite/shared/testkit"
)

// memberRacingStore changes each membership a removal is about to remove,
// as a concurrent write of the member would (an end date set meanwhile),
// for the first races removals.
type memberRacingStore struct {
	domain.Store
	races int
}

func (s *memberRacingStore) ApplyRemoval(ctx context.Context, r domain.Removal) error {
	if s.races > 0 {
		s.races--
		for _, ur := range r.UserRoles {
			stored, err := s.Store.GetUserRole(ctx, ur.UserID, ur.RoleID)
			if err != nil {
				return err
			}
			end := now.Add(90 * 24 * time.Hour)
			stored.EndDate = &end
			if err := s.Store.UpdateUserRole(ctx, stored, nil, nil); err != nil {
				return err
			}
		}
	}
	return s.Store.ApplyRemoval(ctx, r)
}

// A role deletion whose member removals keep losing to concurrent writes
// answers a conflict, and the caller's retry of the same DELETE finishes
// it: memberships gone with a DELETE audit entry each, a member whose last
// membership it was deleted and no longer found, the others keep their
// other roles; a third DELETE finds nothing.
func TestRoleDeletionLosingToMemberWritesFinishesOnRetry(t *testing.T) {
	s, _ := newService(t)
	ctx := context.Background()
	doomed, err := s.CreateRole(ctx, root, wikiRole("Doomed"))
	if err != nil {
		t.Fatal(err)
	}
	kept, err := s.CreateRole(ctx, root, wikiRole("Kept"))
	if err != nil {
		t.Fatal(err)
	}
	alice := acceptInto(t, s, auth.Person{Sub: "sub-alice", Email: "alice@example.org", GivenName: "Alice", FamilyName: "Only", Name: "Alice Only"}, []int64{doomed.ID})
	bob := acceptInto(t, s, auth.Person{Sub: "sub-bob", Email: "bob@example.org", GivenName: "Bob", FamilyName: "Both", Name: "Bob Both"}, []int64{doomed.ID, kept.ID})

	racing := &memberRacingStore{Store: s.Store, races: 1000}
	inner := s.Store
	s.Store = racing
	if err := s.DeleteRole(ctx, root, doomed.ID); domain.KindOf(err) != domain.KindConflict {
		t.Fatalf("deletion losing every race: %v, want a conflict", err)
	}
	if _, err := inner.GetRole(ctx, doomed.ID); !domain.IsNotFound(err) {
		t.Fatalf("role after the first attempt: %v, want it gone", err)
	}

	racing.races = 2 // the retry loses twice more, then wins
	if err := s.DeleteRole(ctx, root, doomed.ID); err != nil {
		t.Fatalf("retried deletion: %v", err)
	}
	s.Store = inner
	if left, _, err := inner.ListUserRolesOfRole(ctx, doomed.ID, "", 100); err != nil || len(left) != 0 {
		t.Fatalf("memberships left: %d, %v", len(left), err)
	}
	if _, err := inner.GetUser(ctx, alice.ID); !domain.IsNotFound(err) {
		t.Errorf("alice, whose last role it was: %v, want deleted", err)
	}
	if urs, err := inner.ListUserRolesOfUser(ctx, bob.ID); err != nil || len(urs) != 1 || urs[0].RoleID != kept.ID {
		t.Errorf("bob's memberships = %+v, %v; want only the kept role", urs, err)
	}
	entries, err := inner.(*dynamo.Store).ListAuditEntriesOfRole(ctx, doomed.ID)
	if err != nil {
		t.Fatal(err)
	}
	deletes := map[int64]int{}
	for _, e := range entries {
		if e.Action == domain.AuditDelete {
			deletes[e.UserID]++
			if e.RoleName != "Doomed" {
				t.Errorf("audit entry names role %q", e.RoleName)
			}
		}
	}
	if deletes[alice.ID] != 1 || deletes[bob.ID] != 1 {
		t.Errorf("DELETE audit entries per user = %v, want one each", deletes)
	}
	if page, err := s.SearchUsers(ctx, root, domain.PageRequest{Query: "alice", Size: 10}); err != nil || page.Total != 0 {
		t.Errorf("deleted member still found: %+v, %v", page, err)
	}
	if err := s.DeleteRole(ctx, root, doomed.ID); !domain.IsNotFound(err) {
		t.Errorf("third deletion: %v, want not found", err)
	}
}

// A caller who may not manage the role cannot finish another's deletion.
func TestRoleDeletionInProgressKeepsItsRule(t *testing.T) {
	s, _ := newService(t)
	ctx := context.Background()
	role, err := s.CreateRole(ctx, root, wikiRole("Doomed"))
	if err != nil {
		t.Fatal(err)
	}
	acceptInto(t, s, auth.Person{Sub: "sub-carl", Email: "carl@example.org", Name: "Carl"}, []int64{role.ID})
	inner := s.Store
	s.Store = &memberRacingStore{Store: inner, races: 1000}
	if err := s.DeleteRole(ctx, root, role.ID); domain.KindOf(err) != domain.KindConflict {
		t.Fatalf("first attempt: %v", err)
	}
	s.Store = inner
	person := auth.Person{Sub: "other"}
	other := &auth.Principal{Kind: auth.KindPerson, Person: &person, User: &domain.User{ID: 999}}
	// A stranger (outside the role's organization) is answered as for a
	// missing role, also while the deletion is in progress.
	if err := s.DeleteRole(ctx, other, role.ID); !domain.IsNotFound(err) {
		t.Errorf("a stranger finishing the deletion: %v, want not found", err)
	}
	if left, _, _ := inner.ListUserRolesOfRole(ctx, role.ID, "", 10); len(left) != 1 {
		t.Errorf("%d memberships left after the refusal, want 1", len(left))
	}
}

// deletingStore deletes the role just before an acceptance is saved.
type deletingStore struct {
	domain.Store
	deleteRole func()
}

func (s *deletingStore) SaveAcceptance(ctx context.Context, a domain.Acceptance) error {
	if s.deleteRole != nil {
		s.deleteRole()
		s.deleteRole = nil
	}
	return s.Store.SaveAcceptance(ctx, a)
}

// An acceptance that comes after its role's deletion adds no membership
// the deletion could not see.
func TestAcceptanceAfterRoleDeletionAddsNoMembership(t *testing.T) {
	s, q := newService(t)
	ctx := context.Background()
	role, err := s.CreateRole(ctx, root, wikiRole("Doomed"))
	if err != nil {
		t.Fatal(err)
	}
	id, secret := testkit.Invite(t, s, root, "dora@example.org", role.ID, domain.Guest, now.Add(24*time.Hour))
	inner := s.Store
	s.Store = &deletingStore{Store: inner, deleteRole: func() {
		other := &service.Service{Store: inner, Queue: q, Registry: s.Registry, Clock: s.Clock}
		if err := other.DeleteRole(ctx, root, role.ID); err != nil {
			t.Error(err)
		}
	}}
	person := auth.Person{Sub: "sub-dora", Email: "dora@example.org", Name: "Dora"}
	if _, err := s.Accept(ctx, &auth.Principal{Kind: auth.KindPerson, Person: &person}, secret, id); err == nil {
		t.Fatal("acceptance into a deleted role succeeded")
	}
	if left, _, _ := inner.ListUserRolesOfRole(ctx, role.ID, "", 10); len(left) != 0 {
		t.Errorf("%d memberships of the deleted role", len(left))
	}
	if _, err := inner.GetUserBySub(ctx, "sub-dora"); !domain.IsNotFound(err) {
		t.Errorf("user of the failed acceptance: %v", err)
	}
}

// A guest whose last role is deleted before the guest's creation at the
// role's SPs has been delivered (no link yet) still gets a user deletion
// at each of them: it follows the creation in the user's line, so that a
// creation that reached the SP, or is still being retried, ends there.
func TestRoleDeletionDeletesAGuestNotLinkedYetAtTheRolesSPs(t *testing.T) {
	s, q := newService(t)
	ctx := context.Background()
	role, err := s.CreateRole(ctx, root, wikiRole("Doomed"))
	if err != nil {
		t.Fatal(err)
	}
	eve := acceptInto(t, s, auth.Person{Sub: "sub-eve", Email: "eve@example.org", EduPersonPrincipalName: "eve@example.org", Name: "Eve"}, []int64{role.ID})
	q.Take()
	if err := s.DeleteRole(ctx, root, role.ID); err != nil {
		t.Fatal(err)
	}
	deleted := map[string]domain.Delivery{}
	for _, d := range q.Take() {
		if d.Kind == domain.DeliverUserDelete && d.UserID == eve.ID {
			deleted[d.SPID] = d
		}
	}
	for _, sp := range []string{"sp-a", "sp-b"} {
		d, ok := deleted[sp]
		if !ok || d.ExternalID == "" || d.OrderKey != domain.ResourceLine(domain.ResourceUser, sp, eve.ID) {
			t.Errorf("user deletion at %s: %+v, %v; want one in the user's line, with the externalId", sp, d, ok)
		}
	}
	if len(deleted) != 2 {
		t.Errorf("user deletions at %d SPs, want 2", len(deleted))
	}
}

// An invitation accepted after its roles were deleted grants only what is
// left: with no role left it is refused and creates no user (who would
// hold no membership that any removal could end); with one role left the
// person becomes a member of that one.
func TestAcceptanceOfAnInvitationWhoseRolesWereDeleted(t *testing.T) {
	for _, tc := range []struct {
		name            string
		deleted, others int
		wantErr         domain.ErrorKind
		wantRoles       int
	}{
		{name: "its one role deleted", deleted: 1, others: 0, wantErr: domain.KindGone},
		{name: "both of its roles deleted", deleted: 2, others: 0, wantErr: domain.KindGone},
		{name: "one of two roles deleted", deleted: 1, others: 1, wantRoles: 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, _ := newService(t)
			ctx := context.Background()
			var roles, doomed []int64
			for i := range tc.deleted + tc.others {
				role, err := s.CreateRole(ctx, root, wikiRole(fmt.Sprint("Role ", i)))
				if err != nil {
					t.Fatal(err)
				}
				roles = append(roles, role.ID)
				if i < tc.deleted {
					doomed = append(doomed, role.ID)
				}
			}
			id, secret := testkit.InviteToRoles(t, s, root, "dora@example.org", roles, domain.Guest, now.Add(24*time.Hour))
			for _, roleID := range doomed {
				if err := s.DeleteRole(ctx, root, roleID); err != nil {
					t.Fatal(err)
				}
			}
			person := auth.Person{Sub: "sub-dora", Email: "dora@example.org", Name: "Dora"}
			res, err := s.Accept(ctx, &auth.Principal{Kind: auth.KindPerson, Person: &person}, secret, id)
			if domain.KindOf(err) != tc.wantErr {
				t.Fatalf("accept: %v, want kind %v", err, tc.wantErr)
			}
			user, uerr := s.Store.GetUserBySub(ctx, "sub-dora")
			if tc.wantRoles == 0 {
				if !domain.IsNotFound(uerr) {
					t.Errorf("user after the refused acceptance: %+v, %v; want none", user, uerr)
				}
				return
			}
			if uerr != nil {
				t.Fatal(uerr)
			}
			held, err := s.Store.ListUserRolesOfUser(ctx, user.ID)
			if err != nil || len(held) != tc.wantRoles || len(res.UserRoles) != tc.wantRoles || held[0].RoleID != roles[tc.deleted] {
				t.Errorf("memberships %+v (answered %d), %v; want one of role %d", held, len(res.UserRoles), err, roles[tc.deleted])
			}
		})
	}
}

// laggingIndexStore hides one user's memberships from the role's member
// listing (an eventually consistent index) for its first calls, as an index
// that has not caught up with an acceptance committed just before the
// role's deletion.
type laggingIndexStore struct {
	domain.Store
	hidden int64 // user id
	lag    int   // listings that still miss it
}

func (s *laggingIndexStore) ListUserRolesOfRole(ctx context.Context, roleID int64, token string, limit int) ([]domain.UserRole, string, error) {
	page, next, err := s.Store.ListUserRolesOfRole(ctx, roleID, token, limit)
	if s.lag <= 0 || err != nil {
		return page, next, err
	}
	s.lag--
	shown := page[:0:0]
	for _, ur := range page {
		if ur.UserID != s.hidden {
			shown = append(shown, ur)
		}
	}
	return shown, next, nil
}

// A role's deletion ends only when its member counter, read consistently
// from the table, says no membership is left: a member the index lists
// late is still removed (and leaves the service with its last membership),
// instead of being left behind in a role that no longer exists.
func TestRoleDeletionRemovesAMemberTheIndexListsLate(t *testing.T) {
	for _, tc := range []struct {
		name   string
		others int // members the index lists at once
		lag    int // listings that miss the late member
	}{
		{name: "the only member, listed late", lag: 2},
		{name: "one member of three, listed late", others: 2, lag: 3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, _ := newService(t)
			ctx := context.Background()
			role, err := s.CreateRole(ctx, root, wikiRole("Doomed"))
			if err != nil {
				t.Fatal(err)
			}
			for i := range tc.others {
				acceptInto(t, s, auth.Person{Sub: fmt.Sprint("sub-other-", i), Email: fmt.Sprintf("other%d@example.org", i), Name: "Other"}, []int64{role.ID})
			}
			late := acceptInto(t, s, auth.Person{Sub: "sub-late", Email: "late@example.org", Name: "Late"}, []int64{role.ID})
			inner := s.Store
			s.Store = &laggingIndexStore{Store: inner, hidden: late.ID, lag: tc.lag}
			if err := s.DeleteRole(ctx, root, role.ID); err != nil {
				t.Fatal(err)
			}
			if left, err := inner.ListUserRolesOfUser(ctx, late.ID); err != nil || len(left) != 0 {
				t.Errorf("late member keeps %+v, %v", left, err)
			}
			if u, err := inner.GetUserBySub(ctx, "sub-late"); !domain.IsNotFound(err) {
				t.Errorf("late member's user %+v, %v; want deleted with its last membership", u, err)
			}
			if _, err := inner.GetRoleDeletion(ctx, role.ID); !domain.IsNotFound(err) {
				t.Errorf("deletion still in progress: %v", err)
			}
		})
	}
}
