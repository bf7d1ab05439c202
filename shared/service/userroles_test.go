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

// A login that races another change of the user leaves the user to the
// other change and sends nothing; the next login compares again.
func TestPersonLoggedInLosesRacesQuietly(t *testing.T) {
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
	if err != nil || got.Email != "pat@uni.example" || len(q.Deliveries()) != before {
		t.Fatalf("lost race: %+v, %v, %d deliveries", got, err, len(q.Deliveries())-before)
	}
	got, err = s.PersonLoggedIn(ctx, res.User, auth.Person{Sub: stale.Sub, Email: "new@uni.example"})
	if err != nil || got.Email != "new@uni.example" || got.Version != res.User.Version+1 || !got.LastActivity.Equal(now) {
		t.Fatalf("login: %+v, %v", got, err)
	}
	if d := q.Deliveries()[before:]; len(d) != 1 || d[0].SPID != "sp-b" || d[0].Kind != domain.DeliverUserUpdate {
		t.Fatalf("deliveries %+v, want one user.update at sp-b, the only SP that has the user", d)
	}
}
