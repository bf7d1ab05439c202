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

// acceptInto invites the person to the roles and accepts as them.
func acceptInto(t *testing.T, s *service.Service, p auth.Person, roles []int64) domain.User {
	t.Helper()
	id, secret := testkit.InviteToRoles(t, s, root, p.Email, roles, domain.Guest, now.Add(14*24*time.Hour))
	return testkit.AcceptAs(t, s, p, id, secret).User
}

// A user with more memberships than one transaction holds is deleted in
// several removals, the user itself with the last one.
func TestDeleteUserWithManyMemberships(t *testing.T) {
	s, q := newService(t)
	ctx := context.Background()
	var roles []int64
	for i := range 20 {
		r, err := s.CreateRole(ctx, root, wikiRole(fmt.Sprint("Wiki ", i)))
		if err != nil {
			t.Fatal(err)
		}
		roles = append(roles, r.ID)
	}
	p := auth.Person{Sub: "sub-many", Email: "many@example.org", GivenName: "Mona", FamilyName: "Many", Name: "Mona Many"}
	var user domain.User
	for start := 0; start < len(roles); start += 5 {
		user = acceptInto(t, s, p, roles[start:start+5])
	}

	// Refusals change nothing.
	person := auth.Person{Sub: "someone"}
	notSuper := &auth.Principal{Kind: auth.KindPerson, Person: &person, User: &domain.User{ID: 999}}
	if err := s.DeleteUser(ctx, notSuper, user.ID); domain.KindOf(err) != domain.KindForbidden {
		t.Fatalf("non super user: %v", err)
	}
	if err := s.DeleteUser(ctx, root, 424242); !domain.IsNotFound(err) {
		t.Fatalf("unknown user: %v", err)
	}
	if urs, _ := s.Store.ListUserRolesOfUser(ctx, user.ID); len(urs) != 20 {
		t.Fatalf("refused deletions removed memberships: %d left", len(urs))
	}

	before := len(q.Deliveries())
	if err := s.DeleteUser(ctx, root, user.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Store.GetUser(ctx, user.ID); !domain.IsNotFound(err) {
		t.Errorf("user still there: %v", err)
	}
	if urs, _ := s.Store.ListUserRolesOfUser(ctx, user.ID); len(urs) != 0 {
		t.Errorf("%d memberships left", len(urs))
	}
	checkUserRemoval(t, q.Deliveries()[before:], 40, 2)
	store := s.Store.(*dynamo.Store)
	for _, roleID := range roles {
		entries, err := store.ListAuditEntriesOfRole(ctx, roleID)
		if err != nil {
			t.Fatal(err)
		}
		deleted := 0
		for _, e := range entries {
			if e.Action == domain.AuditDelete && e.UserID == user.ID && e.CreatedBy == "root" {
				deleted++
			}
		}
		if deleted != 1 {
			t.Errorf("role %d: %d DELETE audit entries", roleID, deleted)
		}
	}
	page, err := s.SearchUsers(ctx, root, domain.PageRequest{Query: "mona", Size: 10})
	if err != nil || page.Total != 0 {
		t.Errorf("deleted user still found: %+v %v", page, err)
	}
}

// checkUserRemoval checks the deliveries of a user's removal: the group
// removals, then the user's deletions last, and nothing else.
func checkUserRemoval(t *testing.T, sent []domain.Delivery, wantRemoves, wantDeletes int) {
	t.Helper()
	removes, deletes := 0, 0
	for i, d := range sent {
		switch d.Kind {
		case domain.DeliverMemberRemove:
			removes++
		case domain.DeliverUserDelete:
			deletes++
			if i < len(sent)-wantDeletes {
				t.Errorf("user.delete at %d of %d: before group removals", i, len(sent))
			}
		default:
			t.Errorf("unexpected delivery %s", d.Kind)
		}
	}
	if removes != wantRemoves || deletes != wantDeletes {
		t.Errorf("%d member removals and %d user deletions, want %d and %d", removes, deletes, wantRemoves, wantDeletes)
	}
}

func TestMeOfUnknownPersonAndAPIToken(t *testing.T) {
	s, _ := newService(t)
	ctx := context.Background()
	p := auth.Person{Sub: "new-sub", Email: "new@example.org", GivenName: "New", FamilyName: "Comer"}
	me, err := s.Me(ctx, &auth.Principal{Kind: auth.KindPerson, Person: &p})
	if err != nil || me.Known || me.User.Sub != "new-sub" || me.User.Email != "new@example.org" || len(me.UserRoles) != 0 {
		t.Errorf("me of unknown person = %+v, %v", me, err)
	}
	// An API token is the user the reference makes of it: no id, no roles.
	if me, err := s.Me(ctx, root); err != nil || me.Known || me.User.Name != "root" || !me.User.SuperUser || len(me.UserRoles) != 0 {
		t.Errorf("me of an API token = %+v, %v", me, err)
	}
	if _, err := s.Me(ctx, &auth.Principal{Kind: auth.KindMachine, Name: "pdp"}); domain.KindOf(err) != domain.KindForbidden {
		t.Errorf("me of a machine caller: %v", err)
	}
	if _, err := s.Me(ctx, nil); domain.KindOf(err) != domain.KindUnauthenticated {
		t.Errorf("me of nobody: %v", err)
	}
}
