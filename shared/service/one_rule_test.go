package service_test

import (
	"context"
	"testing"
	"time"

	"github.com/edu-invite/invite/shared/auth"
	"github.com/edu-invite/invite/shared/domain"
	"github.com/edu-invite/invite/shared/testkit"
)

// A role read by id counts its members as the listing does.
func TestGetRoleCountsMembersAsTheListing(t *testing.T) {
	s, _ := newService(t)
	ctx := context.Background()
	role, err := s.CreateRole(ctx, root, wikiRole("Counted"))
	if err != nil {
		t.Fatal(err)
	}
	for _, who := range []string{"una", "vic"} {
		acceptInto(t, s, auth.Person{Sub: "sub-" + who, Email: who + "@example.org", Name: who}, []int64{role.ID})
	}
	got, err := s.GetRole(ctx, root, role.ID)
	if err != nil || got.UserRoleCount != 2 {
		t.Fatalf("GetRole userRoleCount = %d, %v; want 2", got.UserRoleCount, err)
	}
}

// An institution admin whose last membership ends keeps the record and
// the admin right, whether it expires or is removed with DELETE
// /user_roles; a plain member's record goes either way.
func TestLastMembershipOfAnInstitutionAdminOneRule(t *testing.T) {
	for _, tc := range []struct {
		name  string
		admin bool
		way   string
	}{
		{"admin, expiry", true, "expiry"},
		{"admin, removal", true, "removal"},
		{"member, expiry", false, "expiry"},
		{"member, removal", false, "removal"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			clock := now
			s, _ := testkit.NewService(t, func() time.Time { return clock })
			ctx := context.Background()
			in := wikiRole("Short")
			in.DefaultExpiryDays = 1
			role, err := s.CreateRole(ctx, root, in)
			if err != nil {
				t.Fatal(err)
			}
			u := acceptInto(t, s, auth.Person{Sub: "sub-ada", Email: "ada@example.org", Name: "Ada"}, []int64{role.ID})
			if tc.admin {
				u, err = s.Store.GetUser(ctx, u.ID)
				if err != nil {
					t.Fatal(err)
				}
				u.InstitutionAdmin, u.OrganizationGUID = true, "org-test"
				if err := s.Store.UpdateUser(ctx, u, nil); err != nil {
					t.Fatal(err)
				}
			}
			switch tc.way {
			case "expiry":
				clock = now.Add(3 * 24 * time.Hour)
				if _, err := s.RemoveExpired(ctx); err != nil {
					t.Fatal(err)
				}
			case "removal":
				urs, err := s.Store.ListUserRolesOfUser(ctx, u.ID)
				if err != nil || len(urs) != 1 {
					t.Fatalf("memberships %v, %v", urs, err)
				}
				if _, err := s.RemoveUserRole(ctx, root, urs[0].ID, false); err != nil {
					t.Fatal(err)
				}
			}
			if urs, _ := s.Store.ListUserRolesOfUser(ctx, u.ID); len(urs) != 0 {
				t.Fatalf("%d memberships left", len(urs))
			}
			stored, err := s.Store.GetUser(ctx, u.ID)
			if tc.admin && (err != nil || !stored.InstitutionAdmin) {
				t.Errorf("admin after the last membership: %+v, %v; want kept with the right", stored, err)
			}
			if !tc.admin && !domain.IsNotFound(err) {
				t.Errorf("member after the last membership: %v, want deleted", err)
			}
		})
	}
}
