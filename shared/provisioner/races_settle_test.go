package provisioner_test

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"testing"

	"github.com/edu-invite/invite/localstack/scimsp"
	"github.com/edu-invite/invite/shared/auth"
	"github.com/edu-invite/invite/shared/config"
	"github.com/edu-invite/invite/shared/domain"
	"github.com/edu-invite/invite/shared/provisioner"
	"github.com/edu-invite/invite/shared/service"
)

// subjectsReadHook runs a function once, just after the provisioner's
// first batched read of what its deliveries are about (the moment a user's
// creation holds the user as it is going to send it).
type subjectsReadHook struct {
	provisioner.Store
	hook func()
}

func (h *subjectsReadHook) GetDeliverySubjects(ctx context.Context, q domain.SubjectsQuery) (domain.DeliverySubjects, error) {
	got, err := h.Store.GetDeliverySubjects(ctx, q)
	if hook := h.hook; hook != nil {
		h.hook = nil
		hook()
	}
	return got, err
}

// settle hands deliveries to the provisioner as SQS would: a failed one is
// received again (its receive count one higher) until all are done, and
// what the lines queue meanwhile follows them. Nothing may be dead-lettered.
func (f *fixture) settle(t *testing.T, ds []domain.Delivery) {
	t.Helper()
	ds = slices.DeleteFunc(ds, func(d domain.Delivery) bool { return d.SPID != "wiki-sp" })
	received := 1
	for len(ds) > 0 {
		if received > 6 {
			t.Fatalf("deliveries still failing after %d receives: %+v", received-1, ds)
		}
		ev := batch(t, ds, "wiki-sp", received)
		for i := range ev.Records { // each line its own FIFO message group, as queued
			ev.Records[i].Attributes["MessageGroupId"] = ds[i].MessageGroup()
		}
		resp, err := f.prov.HandleSQS(context.Background(), ev)
		if err != nil {
			t.Fatal(err)
		}
		failed := map[string]bool{}
		for _, r := range resp.BatchItemFailures {
			failed[r.ItemIdentifier] = true
		}
		var again []domain.Delivery
		for _, d := range ds {
			if failed[d.ID] {
				again = append(again, d)
			}
		}
		more := slices.DeleteFunc(f.queue.Take(), func(d domain.Delivery) bool { return d.SPID != "wiki-sp" })
		ds, received = append(again, more...), received+1
	}
	if len(f.dlq.reasons) != 0 {
		t.Fatalf("dead letters: %v", f.dlq.reasons)
	}
}

// withMailApplication gives the fixture a second application, "mail", that
// no SP provisions, so that a role can exist before the wiki is added to it.
func (f *fixture) withMailApplication(t *testing.T) {
	t.Helper()
	reg, err := config.Parse([]byte(fmt.Sprintf(`{
	  "applications": [
	    {"manageId": "wiki", "manageType": "SAML20_SP", "provisionings": ["wiki-sp"]},
	    {"manageId": "mail", "manageType": "SAML20_SP"}],
	  "provisionings": [{"id": "wiki-sp", "baseUrl": %q, "membership": "PATCH", "auth": {"method": "bearer", "token": "env:TEST_SP_TOKEN"}}]}`,
		f.spURL)))
	if err != nil {
		t.Fatal(err)
	}
	f.svc.Registry = reg
	f.prov.Clients.(*provisioner.Targets).Registry = reg
}

// spMemberNames are the userNames of the members of the SP's one group.
func (f *fixture) spMemberNames(t *testing.T) (string, []string) {
	t.Helper()
	groups := f.sp.Groups()
	if len(groups) != 1 {
		t.Fatalf("SP groups %+v, want one", groups)
	}
	byID := map[string]string{}
	for _, u := range f.sp.Users() {
		byID[u.ID] = u.UserName
	}
	var names []string
	for _, m := range groups[0].Members {
		names = append(names, byID[m.Value])
	}
	sort.Strings(names)
	return groups[0].DisplayName, names
}

// A role changed at the SP (renamed, renamed in case only, or given its
// SCIM application) within moments of an acceptance, in every order of
// the two lines (the group's update first, the new member's line first,
// the member's line while the update reads the members), settles with the
// new name and every member the service holds. The SP's PATCH add is
// idempotent here: duplicates are another test's subject.
func TestRoleChangeAndAcceptanceSettleAtTheSP(t *testing.T) {
	const renamed = "Wiki authors"
	for _, change := range []struct {
		name    string
		rename  string
		withApp bool // the role starts without the wiki; the change adds it
	}{
		{"rename", renamed, false},
		{"case-only rename", "WIKI EDITORS", false},
		{"application added", "Wiki editors", true},
	} {
		for _, order := range []string{"update first", "acceptance first", "acceptance during the update"} {
			t.Run(change.name+", "+order, func(t *testing.T) {
				f := newFixtureOf(t, "PATCH", "right-token", scimsp.Options{BearerToken: "right-token"})
				f.withMailApplication(t)
				ctx := context.Background()
				apps := []service.ApplicationUsageInput{{ManageID: "wiki"}}
				if change.withApp {
					apps = []service.ApplicationUsageInput{{ManageID: "mail"}}
				}
				role, err := f.svc.CreateRole(ctx, superUser, service.RoleInput{OrganizationGUID: "org-test", Name: "Wiki editors",
					ApplicationUsages: apps})
				if err != nil {
					t.Fatal(err)
				}
				f.accept(t, role.ID, "alice@example.org")
				f.deliver(t, f.queue.Take(), 1)

				apps = []service.ApplicationUsageInput{{ManageID: "wiki"}}
				if change.withApp {
					apps = append(apps, service.ApplicationUsageInput{ManageID: "mail"})
				}
				if _, err := f.svc.UpdateRole(ctx, superUser, role.ID, service.RoleInput{Name: change.rename, ApplicationUsages: apps}); err != nil {
					t.Fatal(err)
				}
				update := f.queue.Take()
				f.accept(t, role.ID, "bob@example.org")
				bobsLine := f.queue.Take()
				if len(update) == 0 || len(bobsLine) == 0 {
					t.Fatalf("deliveries: update %d, bob's line %d", len(update), len(bobsLine))
				}

				switch order {
				case "update first":
					f.settle(t, update)
					f.settle(t, bobsLine)
				case "acceptance first":
					// bob's membership waits for a group the update creates.
					f.settle(t, append(bobsLine, update...))
				case "acceptance during the update":
					inner := f.prov.Store
					f.prov.Store = &linksReadHook{Store: inner, hook: func() {
						f.prov.Store = inner
						f.settle(t, bobsLine)
					}}
					f.settle(t, update)
					f.prov.Store = inner
				}
				name, members := f.spMemberNames(t)
				if name != change.rename {
					t.Errorf("SP group name %q, want %q", name, change.rename)
				}
				if fmt.Sprint(members) != "[alice@example.org bob@example.org]" {
					t.Errorf("SP group members %v, want alice and bob once each", members)
				}
			})
		}
	}
}

// A sign-in with new attributes right after a user's first acceptance (the
// SCIM creation still queued, or under way with the old name) leaves the
// SP user with the new name once the lines settle.
func TestSignInRightAfterTheFirstAcceptanceReachesTheSP(t *testing.T) {
	for _, order := range []string{"before the creation", "during the creation", "after the creation"} {
		t.Run(order, func(t *testing.T) {
			f := newFixture(t, "PATCH", "right-token")
			ctx := context.Background()
			f.acceptedGuest(t, "alice@example.org")
			accepted := f.queue.Take()
			var userID int64
			for _, d := range accepted {
				if d.Kind == domain.DeliverUserCreate {
					userID = d.UserID
				}
			}
			if userID == 0 {
				t.Fatalf("no user creation among %+v", accepted)
			}
			signIn := func() []domain.Delivery {
				u, err := f.store.GetUser(ctx, userID)
				if err != nil {
					t.Fatal(err)
				}
				if _, err := f.svc.PersonLoggedIn(ctx, u, auth.Person{Sub: u.Sub, GivenName: "Alicia", FamilyName: "Renamed"}); err != nil {
					t.Fatal(err)
				}
				return f.queue.Take()
			}
			switch order {
			case "before the creation":
				updates := signIn()
				f.deliver(t, accepted, 1)
				f.deliver(t, updates, 1)
			case "during the creation":
				var updates []domain.Delivery
				f.prov.Store = &subjectsReadHook{Store: f.store, hook: func() { updates = signIn() }}
				f.deliver(t, accepted, 1)
				f.prov.Store = f.store
				if len(updates) == 0 {
					t.Fatal("the sign-in queued no user.update")
				}
				f.deliver(t, updates, 1)
			case "after the creation":
				f.deliver(t, accepted, 1)
				f.deliver(t, signIn(), 1)
			}
			users := f.sp.Users()
			if len(users) != 1 || users[0].Name == nil || users[0].Name.GivenName != "Alicia" || users[0].Name.FamilyName != "Renamed" {
				t.Fatalf("SP users %+v, want alice once as Alicia Renamed", users)
			}
		})
	}
}
