package provisioner_test

import (
	"context"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/edu-invite/invite/localstack/scimsp"
	"github.com/edu-invite/invite/shared/domain"
	"github.com/edu-invite/invite/shared/scim"
	"github.com/edu-invite/invite/shared/service"
)

func TestReconcilePlansRepairsAndGuardsDeletions(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t, "PATCH", "right-token")
	role1 := f.acceptedGuest(t, "dana@example.org")
	role2 := f.acceptedGuest(t, "erik@example.org")
	if resp, _ := f.prov.HandleSQS(ctx, batch(t, f.queue.Take(), "wiki-sp", 1)); len(resp.BatchItemFailures) != 0 {
		t.Fatalf("failures: %v", resp.BatchItemFailures)
	}
	// Drift: someone deletes dana and role 2's group at the SP.
	c := scim.NewClient(scim.Target{ID: "direct", BaseURL: f.spURL,
		Credentials: scim.Credentials{Method: scim.AuthBearer, Token: "right-token"}}, nil)
	var danaID string
	for _, u := range f.sp.Users() {
		if u.UserName == "dana@example.org" {
			danaID = u.ID
		}
	}
	group2, err := f.store.GetLink(ctx, domain.ResourceGroup, role2, "wiki-sp")
	if err != nil {
		t.Fatal(err)
	}
	if err := c.DeleteUser(ctx, danaID); err != nil {
		t.Fatal(err)
	}
	if err := c.DeleteGroup(ctx, group2.RemoteID); err != nil {
		t.Fatal(err)
	}

	plan, err := f.prov.Reconcile(ctx, "wiki-sp", domain.ReconcileOptions{DryRun: true})
	if err != nil {
		t.Fatal(err)
	}
	if got := actions(plan); got != "create-group GROUP "+itoa(role2)+", create-user USER, replace-members GROUP "+itoa(role1) {
		t.Fatalf("dry-run plan %s (%+v)", got, plan)
	}
	if plan.Users != 2 || plan.Groups != 2 || !plan.Listed || plan.Repaired != 0 {
		t.Fatalf("dry-run report %+v", plan)
	}
	if n, g := len(f.sp.Users()), len(f.sp.Groups()); n != 1 || g != 1 {
		t.Fatalf("the dry run changed the SP: %d users, %d groups", n, g)
	}

	done, err := f.prov.Reconcile(ctx, "wiki-sp", domain.ReconcileOptions{})
	if err != nil || done.Failed != 0 || done.Repaired != 3 {
		t.Fatalf("run: %+v, %v", done, err)
	}
	users, groups := f.sp.Users(), f.sp.Groups()
	byID := map[string]string{}
	for _, u := range users {
		byID[u.ID] = u.UserName
	}
	var state []string
	for _, g := range groups {
		for _, m := range g.Members {
			state = append(state, g.DisplayName+"="+byID[m.Value])
		}
	}
	sort.Strings(state)
	if len(users) != 2 || strings.Join(state, ",") != "Wiki editors dana@example.org=dana@example.org,Wiki editors erik@example.org=erik@example.org" {
		t.Fatalf("after the run: users %+v, memberships %v", users, state)
	}
	again, err := f.prov.Reconcile(ctx, "wiki-sp", domain.ReconcileOptions{DryRun: true})
	if err != nil || len(again.Repairs) != 0 {
		t.Fatalf("a second plan after the repair: %+v, %v", again, err)
	}

	// The guard: if both roles no longer used the SP, the run would delete
	// half of what the service holds there; it stops and changes nothing.
	f.prov.RoleSPs = func(domain.Role) []domain.ServiceProvider { return nil }
	stopped, err := f.prov.Reconcile(ctx, "wiki-sp", domain.ReconcileOptions{})
	if err != nil || stopped.Stopped == "" || stopped.Repaired != 0 {
		t.Fatalf("guarded run: %+v, %v", stopped, err)
	}
	if g := len(f.sp.Groups()); g != 2 {
		t.Fatalf("the guard let %d groups be deleted", 2-g)
	}
	allowed, err := f.prov.Reconcile(ctx, "wiki-sp", domain.ReconcileOptions{MaxDeleteShare: 0.6})
	if err != nil || allowed.Stopped != "" || allowed.Repaired != 2 || len(f.sp.Groups()) != 0 {
		t.Fatalf("run with a larger share: %+v, %v, %d groups left", allowed, err, len(f.sp.Groups()))
	}
}

func actions(r domain.ReconcileReport) string {
	var out []string
	for _, x := range r.Repairs {
		s := string(x.Action) + " " + string(x.Kind)
		if x.Kind == domain.ResourceGroup {
			s += " " + itoa(x.LocalID)
		}
		out = append(out, s)
	}
	sort.Strings(out)
	return strings.Join(out, ", ")
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

// Reconcile applies delivery's rule: a member who holds a role without its
// guest part (an inviter) is not put in that role's group, even where the
// user is at the SP for another role. A member an SP holds twice (its
// PATCH add is not idempotent) is planned and repaired.
func TestReconcileKeepsNonGuestsOutAndRepairsDuplicates(t *testing.T) {
	ctx := context.Background()
	f := newFixtureOf(t, "PATCH", "right-token", scimsp.Options{BearerToken: "right-token",
		Unreliable: scimsp.Unreliable{PatchAddRepeats: true}})
	guestRole := f.acceptedGuest(t, "alice@example.org")
	inviterRole, err := f.svc.CreateRole(ctx, superUser, service.RoleInput{OrganizationGUID: "org-test", Name: "Wiki inviters",
		ApplicationUsages: []service.ApplicationUsageInput{{ManageID: "wiki"}}})
	if err != nil {
		t.Fatal(err)
	}
	f.acceptWith(t, inviterRole.ID, "alice@example.org", domain.Inviter)
	f.deliver(t, f.queue.Take(), 1)

	plan, err := f.prov.Reconcile(ctx, "wiki-sp", domain.ReconcileOptions{DryRun: true})
	if err != nil || len(plan.Repairs) != 0 {
		t.Fatalf("plan with an inviter at the SP through another role: %+v, %v; want nothing to repair", plan.Repairs, err)
	}

	// Someone's retry added alice to the guest role's group a second time.
	c := scim.NewClient(scim.Target{ID: "direct", BaseURL: f.spURL,
		Credentials: scim.Credentials{Method: scim.AuthBearer, Token: "right-token"}}, nil)
	group, err := f.store.GetLink(ctx, domain.ResourceGroup, guestRole, "wiki-sp")
	if err != nil {
		t.Fatal(err)
	}
	alice := f.sp.Users()[0].ID
	if err := c.PatchGroupMembers(ctx, group.RemoteID, scim.PatchAdd, []scim.Member{{Value: alice}}); err != nil {
		t.Fatal(err)
	}
	plan, err = f.prov.Reconcile(ctx, "wiki-sp", domain.ReconcileOptions{DryRun: true})
	if err != nil || len(plan.Repairs) != 1 || !strings.Contains(plan.Repairs[0].Detail, "more than once") {
		t.Fatalf("plan with a duplicate member: %+v, %v", plan.Repairs, err)
	}
	if done, err := f.prov.Reconcile(ctx, "wiki-sp", domain.ReconcileOptions{}); err != nil || done.Repaired != 1 {
		t.Fatalf("run: %+v, %v", done, err)
	}
	for _, g := range f.sp.Groups() {
		want := 0
		if g.ID == group.RemoteID {
			want = 1
		}
		if len(g.Members) != want {
			t.Errorf("group %q members %+v, want %d", g.DisplayName, g.Members, want)
		}
	}
}

// The plan names an externalId it replaces that the service never set: an
// account adopted after a 409 keeps its own until the plan says so.
func TestReconcilePlanSaysItReplacesAnAdoptedExternalID(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t, "PATCH", "right-token")
	c := scim.NewClient(scim.Target{ID: "direct", BaseURL: f.spURL,
		Credentials: scim.Credentials{Method: scim.AuthBearer, Token: "right-token"}}, nil)
	if _, err := c.CreateUser(ctx, scim.User{UserName: "alice@example.org", ExternalID: "hr-42"}); err != nil {
		t.Fatal(err)
	}
	f.acceptedGuest(t, "alice@example.org")
	f.deliver(t, f.queue.Take(), 1)
	if u := f.sp.Users(); len(u) != 1 || u[0].ExternalID != "hr-42" {
		t.Fatalf("adopted account %+v, want its own externalId kept by the delivery", u)
	}
	plan, err := f.prov.Reconcile(ctx, "wiki-sp", domain.ReconcileOptions{DryRun: true})
	if err != nil || len(plan.Repairs) != 1 || plan.Repairs[0].Action != domain.RepairUpdateUser ||
		!strings.Contains(plan.Repairs[0].Detail, `externalId "hr-42" is replaced`) {
		t.Fatalf("plan %+v, %v: want an update that says it replaces the externalId", plan.Repairs, err)
	}
}
