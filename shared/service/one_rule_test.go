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

// A role read by id counts its members as the listing does.
func TestGetRoleCountsMembersAsTheListing(t *testing.T) {
	s, _ := newService(t)
	ctx := context.Background()
	role := createWikiRole(t, s, "Counted")
	for _, who := range []string{"una", "vic"} {
		acceptInto(t, s, auth.Person{Sub: "sub-" + who, Email: who + "@example.org", Name: who}, []int64{role.ID})
	}
	got, err := s.GetRole(ctx, root, role.ID)
	if err != nil || got.UserRoleCount != 2 {
		t.Fatalf("GetRole userRoleCount = %d, %v; want 2", got.UserRoleCount, err)
	}
}

// An institution admin whose last membership ends keeps the record and
// the admin right, whether it expires, is removed with DELETE /user_roles
// or goes with its role's deletion; a plain member's record goes every way.
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
		{"admin, role deletion", true, "role deletion"},
		{"member, role deletion", false, "role deletion"},
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
			case "role deletion":
				if err := s.DeleteRole(ctx, root, role.ID); err != nil {
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

// A user the SPs know already who accepts an invitation with a placeholder
// id gets it as externalId there now (a user.update to each SP that knows
// the user), as a user created after the acceptance gets it at creation:
// one rule, not one at creation and another at the next sign-in.
func TestPlaceholderOfALaterAcceptanceReachesTheSPsThatKnowTheUser(t *testing.T) {
	s, q := newService(t)
	ctx := context.Background()
	first := createWikiRole(t, s, "First")
	second := createWikiRole(t, s, "Second")
	person := auth.Person{Sub: "sub-pia", Email: "pia@example.org", EduPersonPrincipalName: "pia@example.org", Name: "Pia"}
	u := acceptInto(t, s, person, []int64{first.ID})
	if err := s.Store.PutLink(ctx, domain.SPLink{Kind: domain.ResourceUser, LocalID: u.ID, SPID: "sp-a", RemoteID: "a-1",
		Status: domain.StatusProvisioned, UpdatedAt: now}); err != nil {
		t.Fatal(err)
	}
	expiry := now.Add(24 * time.Hour)
	res, err := s.Invite(ctx, root, service.InvitationInput{IntendedAuthority: "GUEST", RoleIDs: []int64{second.ID}, ExpiryDate: &expiry,
		SuppressSendingEmails: true, WithPlaceholders: []service.PlaceholderRecipient{{Email: "pia@example.org", InternalPlaceholderIdentifier: "hr-7"}}})
	if err != nil {
		t.Fatal(err)
	}
	before := len(q.Deliveries())
	if _, err := s.Accept(ctx, &auth.Principal{Kind: auth.KindPerson, Person: &person}, testkit.SecretOfURL(t, res.URLs[0].InvitationURL), 0); err != nil {
		t.Fatal(err)
	}
	stored, err := s.Store.GetUser(ctx, u.ID)
	if err != nil || stored.InternalPlaceholderIdentifier != "hr-7" {
		t.Fatalf("user %+v, %v; want the placeholder", stored, err)
	}
	updated := map[string]bool{}
	for _, d := range q.Deliveries()[before:] {
		if d.Kind == domain.DeliverUserUpdate {
			updated[d.SPID] = true
		}
	}
	if !updated["sp-a"] {
		t.Errorf("user.update at %v, want sp-a, where the user is known with its old externalId", updated)
	}
}

// TestOneProvisioningTruth: where the role's group failed at an SP, the
// API's user view (which the guest's own access reads too) and the role
// page say the member failed there with the group's reason, as the role's
// view says of the group; elsewhere the member stays as it is.
func TestOneProvisioningTruth(t *testing.T) {
	s, _ := newService(t)
	ctx := context.Background()
	role := createWikiRole(t, s, "Truth")
	guest := auth.Person{Sub: "urn:collab:person:gia@example.org", Email: "gia@example.org", EduPersonPrincipalName: "gia@example.org", Name: "Gia"}
	res := testkit.InviteAndAccept(t, s, root, guest, role.ID, domain.Guest, now.Add(24*time.Hour))
	const reason = "group.create at sp-a: scim POST /Groups: 401 Unauthorized"
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(s.Store.PutLink(ctx, domain.SPLink{Kind: domain.ResourceGroup, LocalID: role.ID, SPID: "sp-a", Status: domain.StatusFailed, LastError: reason, UpdatedAt: now}))
	must(s.Store.PutLink(ctx, domain.SPLink{Kind: domain.ResourceGroup, LocalID: role.ID, SPID: "sp-b", Status: domain.StatusProvisioned, RemoteID: "g", UpdatedAt: now}))

	groupAt := map[string]domain.ProvisioningStatus{}
	sts, err := s.RoleProvisioning(ctx, root, role.ID)
	must(err)
	for _, st := range sts {
		groupAt[st.SP] = st.Status
	}
	users, err := s.UserProvisioning(ctx, root, res.User.ID)
	must(err)
	page, err := s.RolePage(ctx, root, role.ID, "")
	must(err)
	for name, view := range map[string][]string{"user view": statusesOf(users), "role page": statusesOf(page.Statuses[res.User.ID])} {
		if len(view) != 2 || view[0] != "sp-a=failed:"+reason || view[1] != "sp-b=pending:" {
			t.Errorf("%s: %v (the group: %v)", name, view, groupAt)
		}
	}
	if groupAt["sp-a"] != domain.StatusFailed || len(page.Group) != 2 || page.Group[0].Status != domain.StatusFailed {
		t.Errorf("the role's group: %v, on its page %+v", groupAt, page.Group)
	}
}

func statusesOf(sts []service.ProvisioningStatus) []string {
	var out []string
	for _, st := range sts {
		out = append(out, st.SP+"="+string(st.Status)+":"+st.LastError)
	}
	return out
}
