package provisioner_test

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/edu-invite/invite/shared/auth"
	"github.com/edu-invite/invite/shared/domain"
	"github.com/edu-invite/invite/shared/scim"
	"github.com/edu-invite/invite/shared/service"
)

// spState is the SP's users and each group's members, by userName.
func (f *fixture) spState() (users []string, members []string) {
	byID := map[string]string{}
	for _, u := range f.sp.Users() {
		byID[u.ID] = u.UserName
		users = append(users, u.UserName)
	}
	for _, g := range f.sp.Groups() {
		for _, m := range g.Members {
			members = append(members, byID[m.Value])
		}
	}
	sort.Strings(users)
	sort.Strings(members)
	return users, members
}

// Reconcile applies delivery's rule within one role: of a role's members,
// the guests and those whose membership includes the guest role are put in
// its SP group; an inviter and a manager without it are not, in the dry
// run's plan or in the run, whether the SP lost only the group's members
// or everything.
func TestReconcilePutsOnlyGuestsOfARoleIntoItsGroup(t *testing.T) {
	const want = "[alice@example.org dave@example.org]"
	for _, drift := range []string{"members removed", "users and group deleted"} {
		t.Run(drift, func(t *testing.T) {
			ctx := context.Background()
			f := newFixture(t, "PATCH", "right-token")
			roleID := f.acceptedGuest(t, "alice@example.org")
			f.acceptWith(t, roleID, "bob@example.org", domain.Inviter)
			f.acceptWith(t, roleID, "carol@example.org", domain.Manager)
			expiry := time.Now().Add(time.Hour)
			res, err := f.svc.Invite(ctx, superUser, service.InvitationInput{IntendedAuthority: string(domain.Inviter), GuestRoleIncluded: true,
				Invites: []string{"dave@example.org"}, RoleIDs: []int64{roleID}, ExpiryDate: &expiry, SuppressSendingEmails: true})
			if err != nil {
				t.Fatal(err)
			}
			secret := res.URLs[0].InvitationURL[strings.Index(res.URLs[0].InvitationURL, "hash=")+5:]
			if _, err := f.svc.Accept(ctx, &auth.Principal{Kind: auth.KindPerson, Person: &auth.Person{Sub: "sub-dave",
				EduPersonPrincipalName: "dave@example.org", Email: "dave@example.org", GivenName: "Dave", FamilyName: "D"}}, secret, 0); err != nil {
				t.Fatal(err)
			}
			f.deliver(t, f.queue.Take(), 1)
			if users, members := f.spState(); fmt.Sprint(users) != want || fmt.Sprint(members) != want {
				t.Fatalf("delivered: users %v, members %v; want %s", users, members, want)
			}
			if plan, err := f.prov.Reconcile(ctx, "wiki-sp", domain.ReconcileOptions{DryRun: true}); err != nil || len(plan.Repairs) != 0 {
				t.Fatalf("plan of an SP that holds what delivery put there: %+v, %v; want nothing to repair", plan.Repairs, err)
			}

			c := scim.NewClient(scim.Target{ID: "direct", BaseURL: f.spURL,
				Credentials: scim.Credentials{Method: scim.AuthBearer, Token: "right-token"}}, nil)
			group := f.sp.Groups()[0]
			switch drift {
			case "members removed":
				if err := c.PatchGroupMembers(ctx, group.ID, scim.PatchRemove, group.Members); err != nil {
					t.Fatal(err)
				}
			case "users and group deleted":
				if err := c.DeleteGroup(ctx, group.ID); err != nil {
					t.Fatal(err)
				}
				for _, u := range f.sp.Users() {
					if err := c.DeleteUser(ctx, u.ID); err != nil {
						t.Fatal(err)
					}
				}
			}
			plan, err := f.prov.Reconcile(ctx, "wiki-sp", domain.ReconcileOptions{DryRun: true})
			if err != nil || len(plan.Repairs) == 0 {
				t.Fatalf("dry run: %+v, %v; want repairs", plan, err)
			}
			for _, r := range plan.Repairs {
				for _, who := range []string{"bob", "carol"} {
					if strings.Contains(r.Detail, who) {
						t.Errorf("the plan puts %s (no guest role) at the SP: %+v", who, r)
					}
				}
				if r.Kind == domain.ResourceUser && r.Action == domain.RepairCreateUser {
					if u, err := f.store.GetUser(ctx, r.LocalID); err == nil && (u.Email == "bob@example.org" || u.Email == "carol@example.org") {
						t.Errorf("the plan creates %s at the SP", u.Email)
					}
				}
			}
			if done, err := f.prov.Reconcile(ctx, "wiki-sp", domain.ReconcileOptions{}); err != nil || done.Failed != 0 {
				t.Fatalf("run: %+v, %v", done, err)
			}
			if users, members := f.spState(); fmt.Sprint(users) != want || fmt.Sprint(members) != want {
				t.Errorf("after the run: users %v, members %v; want %s", users, members, want)
			}
			if again, err := f.prov.Reconcile(ctx, "wiki-sp", domain.ReconcileOptions{DryRun: true}); err != nil || len(again.Repairs) != 0 {
				t.Errorf("a plan after the run: %+v, %v; want nothing to repair", again.Repairs, err)
			}
		})
	}
}
