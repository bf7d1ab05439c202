package service_test

import (
	"context"
	"testing"

	"github.com/edu-invite/invite/shared/auth"
	"github.com/edu-invite/invite/shared/domain"
	"github.com/edu-invite/invite/shared/service"
)

func TestProvisionUserRolesDerivesTheSub(t *testing.T) {
	tests := []struct {
		name          string
		in            service.UserRoleProvisioningInput
		sub, schacHom string
	}{
		{"given sub", service.UserRoleProvisioningInput{Sub: "urn:x:given", Email: "a@b.example"}, "urn:x:given", "b.example"},
		{"from the eppn", service.UserRoleProvisioningInput{Email: "pat@mail.example", EduPersonPrincipalName: "p123@uni.example"},
			"urn:collab:person:uni.example:p123", "uni.example"},
		{"from the e-mail address", service.UserRoleProvisioningInput{Email: "pat@Mail.Example"}, "urn:collab:person:mail.example:pat", "mail.example"},
		{"home organization given", service.UserRoleProvisioningInput{Email: "pat@mail.example", SchacHomeOrganization: "home.example"},
			"urn:collab:person:home.example:pat", "home.example"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s, q := newService(t)
			role, err := s.CreateRole(context.Background(), root, wikiRole("Wiki"))
			if err != nil {
				t.Fatal(err)
			}
			tc.in.RoleIDs = []int64{role.ID}
			res, err := s.ProvisionUserRoles(context.Background(), root, tc.in)
			if err != nil {
				t.Fatal(err)
			}
			if res.User.Sub != tc.sub || res.User.SchacHomeOrganization != tc.schacHom || res.User.Version != 1 {
				t.Fatalf("user %+v", res.User)
			}
			stored, err := s.Store.GetUserBySub(context.Background(), tc.sub)
			if err != nil || stored.ID != res.User.ID {
				t.Fatalf("stored %+v, %v", stored, err)
			}
			if len(q.Deliveries()) != 2+4 { // the group at two SPs, then user and membership at each
				t.Errorf("%d deliveries", len(q.Deliveries()))
			}
		})
	}
}

// A login that races another change of the user (an acceptance just
// before) reads the user again and applies the new attributes on top of
// that change; the SCIM update goes to every SP where the user is linked or
// holds a guest role, where its creation may not be linked yet.
func TestPersonLoggedInWinsRacesByReadingAgain(t *testing.T) {
	s, q := newService(t)
	ctx := context.Background()
	role, err := s.CreateRole(ctx, root, wikiRole("Wiki"))
	if err != nil {
		t.Fatal(err)
	}
	res, err := s.ProvisionUserRoles(ctx, root, service.UserRoleProvisioningInput{RoleIDs: []int64{role.ID}, Email: "pat@uni.example"})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Store.PutLink(ctx, domain.SPLink{Kind: domain.ResourceUser, LocalID: res.User.ID, SPID: "sp-b", RemoteID: "b-1",
		Status: domain.StatusProvisioned, UpdatedAt: now}); err != nil {
		t.Fatal(err)
	}
	stale := res.User
	stale.Version-- // read before another writer changed the user
	before := len(q.Deliveries())
	got, err := s.PersonLoggedIn(ctx, stale, auth.Person{Sub: stale.Sub, Email: "new@uni.example"})
	if err != nil || got.Email != "new@uni.example" || got.Version != res.User.Version+1 {
		t.Fatalf("login after a concurrent change: %+v, %v", got, err)
	}
	stored, err := s.Store.GetUser(ctx, res.User.ID)
	if err != nil || stored.Email != "new@uni.example" {
		t.Fatalf("stored %+v, %v", stored, err)
	}
	spsOf := func(ds []domain.Delivery) map[string]bool {
		out := map[string]bool{}
		for _, d := range ds {
			if d.Kind != domain.DeliverUserUpdate || d.UserID != res.User.ID {
				t.Errorf("unexpected delivery %+v", d)
			}
			out[d.SPID] = true
		}
		return out
	}
	if sps := spsOf(q.Deliveries()[before:]); len(sps) != 2 || !sps["sp-a"] || !sps["sp-b"] {
		t.Fatalf("user.update at %v, want sp-b (linked) and sp-a (a role's SP, creation not linked yet)", sps)
	}
	// The same attributes again change nothing and send nothing.
	before = len(q.Deliveries())
	if again, err := s.PersonLoggedIn(ctx, got, auth.Person{Sub: stale.Sub, Email: "new@uni.example"}); err != nil || again.Version != got.Version {
		t.Fatalf("unchanged login: %+v, %v", again, err)
	}
	if n := len(q.Deliveries()) - before; n != 0 {
		t.Errorf("unchanged login sent %d deliveries", n)
	}
}
