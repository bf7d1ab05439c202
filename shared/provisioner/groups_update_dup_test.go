package provisioner_test

import (
	"context"
	"sort"
	"strings"
	"testing"

	"github.com/edu-invite/invite/localstack/scimsp"
	"github.com/edu-invite/invite/shared/service"
)

// A group update (a rename, a rename in case only, the application added)
// queued just before an acceptance adds the new member at the SP, as it adds
// every member the SP lacks; the member's own add, delivered after it as a
// first attempt, then finds the member there. At an SP whose PATCH add is
// not idempotent the group must still hold each member once.
func TestGroupUpdateBeforeAMembersOwnAddLeavesTheMemberOnce(t *testing.T) {
	wiki := []service.ApplicationUsageInput{{ManageID: "wiki"}}
	for _, tc := range []struct {
		name    string
		apps    []service.ApplicationUsageInput // of the role before the update
		rename  string
		members int // at the SP before the update
	}{
		{name: "rename", apps: wiki, rename: "Wiki authors", members: 1},
		{name: "rename in case only", apps: wiki, rename: "WIKI EDITORS", members: 1},
		{name: "application added", apps: []service.ApplicationUsageInput{{ManageID: "docs"}}, rename: "Wiki editors", members: 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixtureOf(t, "PATCH", "right-token", scimsp.Options{BearerToken: "right-token",
				Unreliable: scimsp.Unreliable{PatchAddRepeats: true}})
			ctx := context.Background()
			role, err := f.svc.CreateRole(ctx, superUser, service.RoleInput{OrganizationGUID: "org-test", Name: "Wiki editors",
				ApplicationUsages: tc.apps})
			if err != nil {
				t.Fatal(err)
			}
			if tc.members > 0 {
				f.accept(t, role.ID, "carol@example.org")
				f.deliver(t, f.queue.Take(), 1)
			}
			if _, err := f.svc.UpdateRole(ctx, superUser, role.ID, service.RoleInput{Name: tc.rename,
				ApplicationUsages: withWiki(tc.apps)}); err != nil {
				t.Fatal(err)
			}
			update := f.queue.Take()
			f.accept(t, role.ID, "alice@example.org")
			alicesAdd := f.queue.Take()
			f.deliver(t, update, 1)    // adds alice, whom the service holds already
			f.deliver(t, alicesAdd, 1) // her own add, a first attempt

			groups, users := f.sp.Groups(), f.sp.Users()
			if len(groups) != 1 || len(users) != tc.members+1 {
				t.Fatalf("SP groups %+v, users %+v", groups, users)
			}
			var want []string
			for _, u := range users {
				want = append(want, u.ID)
			}
			got := memberValues(groups[0].Members)
			sort.Strings(got)
			sort.Strings(want)
			if strings.Join(got, ",") != strings.Join(want, ",") || groups[0].DisplayName != tc.rename {
				t.Errorf("group %q members %v, want %q with each of %v once", groups[0].DisplayName, got, tc.rename, want)
			}
		})
	}
}

// withWiki is the applications plus wiki, named once.
func withWiki(apps []service.ApplicationUsageInput) []service.ApplicationUsageInput {
	for _, a := range apps {
		if a.ManageID == "wiki" {
			return apps
		}
	}
	return append(apps, service.ApplicationUsageInput{ManageID: "wiki"})
}
