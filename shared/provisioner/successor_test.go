package provisioner_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/edu-invite/invite/localstack/scimsp"
	"github.com/edu-invite/invite/shared/auth"
	"github.com/edu-invite/invite/shared/domain"
	"github.com/edu-invite/invite/shared/scim"
	"github.com/edu-invite/invite/shared/service"
)

// A guest whose last membership ends leaves the service and every SP; when
// the same person is accepted again before that deletion is delivered, the
// new user (another id, another line) finds the old SP account and adopts
// it. Whatever order the two lines run in, the SP ends with the person's
// account in exactly the groups of the roles the new user holds.
func TestDepartedUsersDeletionLeavesTheAccountItsSuccessorHolds(t *testing.T) {
	for _, tc := range []struct {
		name           string
		sameRole       bool // the person comes back into the role it left
		successorFirst bool // the new user's line runs before the old one's
	}{
		{name: "back in the same role, new line first", sameRole: true, successorFirst: true},
		{name: "back in another role, new line first", successorFirst: true},
		{name: "back in the same role, old line first", sameRole: true},
		{name: "back in another role, old line first"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// An SP whose PATCH add is not idempotent shows a member added twice.
			f := newFixtureOf(t, "PATCH", "right-token", scimsp.Options{BearerToken: "right-token",
				Unreliable: scimsp.Unreliable{PatchAddRepeats: true}})
			ctx := context.Background()
			deliver := func(ds []domain.Delivery) {
				t.Helper()
				resp, err := f.prov.HandleSQS(ctx, batch(t, ds, "wiki-sp", 1))
				if err != nil || len(resp.BatchItemFailures) != 0 {
					t.Fatalf("failures %v, err %v", resp.BatchItemFailures, err)
				}
			}
			left := f.acceptedGuest(t, "alice@example.org")
			back := left
			if !tc.sameRole {
				role, err := f.svc.CreateRole(ctx, superUser, service.RoleInput{OrganizationGUID: "org-test", Name: "Other wiki",
					ApplicationUsages: []service.ApplicationUsageInput{{ManageID: "wiki"}}})
				if err != nil {
					t.Fatal(err)
				}
				back = role.ID
			}
			deliver(f.queue.Take())

			old, err := f.store.GetUserBySub(ctx, "sub-alice@example.org")
			if err != nil {
				t.Fatal(err)
			}
			urs, err := f.store.ListUserRolesOfUser(ctx, old.ID)
			if err != nil || len(urs) != 1 {
				t.Fatalf("memberships %+v, %v", urs, err)
			}
			if _, err := f.svc.RemoveUserRole(ctx, superUser, urs[0].ID, false); err != nil {
				t.Fatal(err)
			}
			departure := f.queue.Take()
			acceptAgain(t, f, back, "alice@example.org")
			comeback := f.queue.Take()
			if tc.successorFirst {
				deliver(comeback)
				deliver(departure)
			} else {
				deliver(departure)
				deliver(comeback)
			}

			users := f.sp.Users()
			if len(users) != 1 || users[0].UserName != "alice@example.org" {
				t.Fatalf("SP users %+v, want alice's one account", users)
			}
			current, err := f.store.GetUserBySub(ctx, "sub-alice@example.org")
			if err != nil {
				t.Fatal(err)
			}
			link, err := f.store.GetLink(ctx, domain.ResourceUser, current.ID, "wiki-sp")
			if err != nil || link.RemoteID != users[0].ID || link.Status != domain.StatusProvisioned {
				t.Errorf("new user's link %+v, %v; want provisioned to %s", link, err, users[0].ID)
			}
			for _, g := range f.sp.Groups() {
				want := []string{}
				if strings.Contains(g.ExternalID, ":"+itoa(back)+":") {
					want = []string{users[0].ID}
				}
				if got := memberValues(g.Members); strings.Join(got, ",") != strings.Join(want, ",") {
					t.Errorf("group %s members %v, want %v", g.DisplayName, got, want)
				}
			}
		})
	}
}

func acceptAgain(t *testing.T, f *fixture, roleID int64, email string) {
	t.Helper()
	ctx := context.Background()
	expiry := time.Now().Add(time.Hour)
	res, err := f.svc.Invite(ctx, superUser, service.InvitationInput{IntendedAuthority: "GUEST", Invites: []string{email},
		RoleIDs: []int64{roleID}, ExpiryDate: &expiry, SuppressSendingEmails: true})
	if err != nil {
		t.Fatal(err)
	}
	secret := res.URLs[0].InvitationURL[strings.Index(res.URLs[0].InvitationURL, "hash=")+5:]
	person := &auth.Principal{Kind: auth.KindPerson, Person: &auth.Person{Sub: "sub-" + email, EduPersonPrincipalName: email,
		Email: email, GivenName: "Given", FamilyName: "Family"}}
	if _, err := f.svc.Accept(ctx, person, secret, 0); err != nil {
		t.Fatal(err)
	}
}

func memberValues(ms []scim.Member) []string {
	out := []string{}
	for _, m := range ms {
		out = append(out, m.Value)
	}
	return out
}

// A creation that meets an account of an earlier user of the same person
// (a 409 on the userName; the account carries the user's externalId), not
// deleted at the SP yet, does not keep its attributes and groups: the SP
// ends with one account, with the user's attributes, a member of the
// user's groups once.
func TestAdoptedAccountGetsTheUsersAttributes(t *testing.T) {
	for _, tc := range []struct{ name, userName string }{
		{name: "same userName", userName: "alice@example.org"},
		{name: "userName differing in case", userName: "Alice@Example.org"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t, "PATCH", "right-token")
			ctx := context.Background()
			c, _, err := f.prov.Clients.Client(ctx, "wiki-sp")
			if err != nil {
				t.Fatal(err)
			}
			if _, err := c.CreateUser(ctx, scim.User{Schemas: []string{scim.SchemaUser}, UserName: tc.userName,
				ExternalID: "alice@example.org", Name: &scim.Name{GivenName: "Then", FamilyName: "Old"}}); err != nil {
				t.Fatal(err)
			}
			f.acceptedGuest(t, "alice@example.org")
			resp, err := f.prov.HandleSQS(ctx, batch(t, f.queue.Take(), "wiki-sp", 1))
			if err != nil || len(resp.BatchItemFailures) != 0 {
				t.Fatalf("failures %v, err %v", resp.BatchItemFailures, err)
			}
			users := f.sp.Users()
			if len(users) != 1 || users[0].Name == nil || users[0].Name.GivenName != "Given" || users[0].Name.FamilyName != "Family" {
				t.Fatalf("SP users %+v, want the one account with the user's name", users)
			}
			groups := f.sp.Groups()
			if len(groups) != 1 || strings.Join(memberValues(groups[0].Members), ",") != users[0].ID {
				t.Errorf("groups %+v, want the adopted account as the one member", groups)
			}
		})
	}
}
