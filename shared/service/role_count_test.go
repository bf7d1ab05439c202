package service_test

import (
	"context"
	"testing"
	"time"

	"github.com/edu-invite/invite/shared/auth"
	"github.com/edu-invite/invite/shared/domain"
	"github.com/edu-invite/invite/shared/service"
	"github.com/edu-invite/invite/shared/testkit"
)

// A role's member count is one number wherever a role is answered: read
// by id, in the listing (by every sort), and in an update's answer; it
// counts every member (guests, inviters, managers with or without the
// guest role) and follows a removal.
func TestRoleMemberCountIsOneNumberEverywhere(t *testing.T) {
	s, _ := newService(t)
	ctx := context.Background()
	role, err := s.CreateRole(ctx, root, wikiRole("Counted everywhere"))
	if err != nil {
		t.Fatal(err)
	}
	other, err := s.CreateRole(ctx, root, wikiRole("Other"))
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range []struct {
		who       string
		authority domain.Authority
	}{{"una", domain.Guest}, {"vic", domain.Inviter}, {"wim", domain.Manager}} {
		id, secret := testkit.InviteToRoles(t, s, root, m.who+"@example.org", []int64{role.ID}, m.authority, now.Add(14*24*time.Hour))
		testkit.AcceptAs(t, s, auth.Person{Sub: "sub-" + m.who, Email: m.who + "@example.org", Name: m.who}, id, secret)
	}
	acceptInto(t, s, auth.Person{Sub: "sub-xan", Email: "xan@example.org", Name: "xan"}, []int64{other.ID})

	counts := func() map[string]int64 {
		t.Helper()
		out := map[string]int64{}
		got, err := s.GetRole(ctx, root, role.ID)
		if err != nil {
			t.Fatal(err)
		}
		out["GetRole"] = got.UserRoleCount
		for _, sort := range service.RoleSorts {
			page, _, err := s.ListRoles(ctx, root, domain.PageRequest{Size: 50, Sort: sort}, false)
			if err != nil {
				t.Fatal(err)
			}
			for _, r := range page.Items {
				if r.ID == role.ID {
					out["ListRoles by "+sort] = r.UserRoleCount
				}
			}
		}
		updated, err := s.UpdateRole(ctx, root, role.ID, service.RoleInput{Name: got.Name, Description: got.Description + ".",
			ApplicationUsages: []service.ApplicationUsageInput{{ManageID: "wiki", ManageType: "SAML20_SP"}}})
		if err != nil {
			t.Fatal(err)
		}
		out["UpdateRole"] = updated.UserRoleCount
		return out
	}
	for where, n := range counts() {
		if n != 3 {
			t.Errorf("%s: userRoleCount %d, want 3", where, n)
		}
	}
	urs, err := s.Store.ListUserRolesOfUser(ctx, mustUserBySub(t, s, "sub-vic").ID)
	if err != nil || len(urs) != 1 {
		t.Fatalf("vic's memberships %v, %v", urs, err)
	}
	if _, err := s.RemoveUserRole(ctx, root, urs[0].ID, false); err != nil {
		t.Fatal(err)
	}
	got := counts()
	if len(got) != 2+len(service.RoleSorts) {
		t.Errorf("the role was answered in %d places, want %d: %v", len(got), 2+len(service.RoleSorts), got)
	}
	for where, n := range got {
		if n != 2 {
			t.Errorf("after a removal, %s: userRoleCount %d, want 2", where, n)
		}
	}
}

func mustUserBySub(t *testing.T, s *service.Service, sub string) domain.User {
	t.Helper()
	u, err := s.Store.GetUserBySub(context.Background(), sub)
	if err != nil {
		t.Fatal(err)
	}
	return u
}
