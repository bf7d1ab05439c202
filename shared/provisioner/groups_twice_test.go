package provisioner_test

import (
	"context"
	"strings"
	"testing"

	"github.com/edu-invite/invite/localstack/scimsp"
	"github.com/edu-invite/invite/shared/scim"
	"github.com/edu-invite/invite/shared/service"
)

// A group update at an SP whose PATCH add is not idempotent leaves each
// member once, also a member the SP already held twice before it (an add
// whose answer was lost and the member's own add, both landed).
func TestGroupUpdateCollapsesAMemberTheSPHoldsTwice(t *testing.T) {
	for _, tc := range []struct{ name, rename string }{
		{name: "rename", rename: "Wiki authors"},
		{name: "rename in case only", rename: "WIKI EDITORS ALICE@EXAMPLE.ORG"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixtureOf(t, "PATCH", "right-token", scimsp.Options{BearerToken: "right-token",
				Unreliable: scimsp.Unreliable{PatchAddRepeats: true}})
			ctx := context.Background()
			roleID := f.acceptedGuest(t, "alice@example.org")
			f.deliver(t, f.queue.Take(), 1)
			c, _, err := f.prov.Clients.Client(ctx, "wiki-sp")
			if err != nil {
				t.Fatal(err)
			}
			groups, users := f.sp.Groups(), f.sp.Users()
			if len(groups) != 1 || len(users) != 1 {
				t.Fatalf("groups %+v users %+v", groups, users)
			}
			if err := c.PatchGroupMembers(ctx, groups[0].ID, scim.PatchAdd, []scim.Member{{Value: users[0].ID}}); err != nil {
				t.Fatal(err)
			}
			if got := memberValues(f.sp.Groups()[0].Members); len(got) != 2 {
				t.Fatalf("members %v, want the member twice before the update", got)
			}
			if _, err := f.svc.UpdateRole(ctx, superUser, roleID, service.RoleInput{Name: tc.rename,
				ApplicationUsages: []service.ApplicationUsageInput{{ManageID: "wiki"}}}); err != nil {
				t.Fatal(err)
			}
			f.deliver(t, f.queue.Take(), 1)
			g := f.sp.Groups()[0]
			if got := memberValues(g.Members); strings.Join(got, ",") != users[0].ID || g.DisplayName != tc.rename {
				t.Errorf("group %q members %v, want %q with %s once", g.DisplayName, got, tc.rename, users[0].ID)
			}
		})
	}
}
