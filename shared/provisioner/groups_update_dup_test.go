package provisioner_test

import (
	"context"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/edu-invite/invite/localstack/scimsp"
	"github.com/edu-invite/invite/shared/domain"
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

// A member's own add reads the group after its PATCH only when the group's
// link notes that another line (a group update, a repair) began adding
// members at a time that may have seen this membership; otherwise it stays
// at one request (two for a person new to the SP), whatever the note says
// of an add long before.
func TestAMembersOwnAddReadsTheGroupOnlyAfterAnotherLinesAdd(t *testing.T) {
	for _, tc := range []struct {
		name    string
		atSP    bool          // the person is at the SP already (a member of another role)
		noteAgo time.Duration // the note on the group's link, this long before the acceptance; 0: none
		want    string        // the SP's requests for the own add
	}{
		{name: "at the SP, no note", atSP: true, want: "PATCH /Groups"},
		{name: "at the SP, a note long before", atSP: true, noteAgo: time.Hour, want: "PATCH /Groups"},
		{name: "at the SP, a note just before", atSP: true, noteAgo: time.Second, want: "PATCH /Groups,GET /Groups"},
		{name: "new to the SP, a note just before", noteAgo: time.Second, want: "POST /Users,PATCH /Groups"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixtureOf(t, "PATCH", "right-token", scimsp.Options{BearerToken: "right-token",
				Unreliable: scimsp.Unreliable{PatchAddRepeats: true}})
			ctx := context.Background()
			if tc.atSP {
				f.acceptedGuest(t, "alice@example.org")
				f.deliver(t, f.queue.Take(), 1)
			}
			role, err := f.svc.CreateRole(ctx, superUser, service.RoleInput{OrganizationGUID: "org-test", Name: "Wiki editors",
				ApplicationUsages: []service.ApplicationUsageInput{{ManageID: "wiki"}}})
			if err != nil {
				t.Fatal(err)
			}
			f.deliver(t, f.queue.Take(), 1) // the group
			if tc.noteAgo > 0 {
				l, err := f.store.GetLink(ctx, domain.ResourceGroup, role.ID, "wiki-sp")
				if err != nil {
					t.Fatal(err)
				}
				at := time.Now().Add(-tc.noteAgo)
				l.MembersAddedAt = &at
				if err := f.store.PutLink(ctx, l); err != nil {
					t.Fatal(err)
				}
			}
			f.accept(t, role.ID, "alice@example.org")
			before := len(f.sp.Requests())
			// In the lines the queue uses, as in production: a user created
			// by the batch has its link stored when the batch ends.
			resp, err := f.prov.HandleSQS(ctx, inLines(t, f.queue.Take(), "wiki-sp", domain.DeliverUserCreate, domain.DeliverMemberAdd))
			if err != nil || len(resp.BatchItemFailures) != 0 {
				t.Fatalf("failures %v, err %v", resp.BatchItemFailures, err)
			}
			var got []string
			for _, r := range f.sp.Requests()[before:] {
				collection := r.Path[strings.LastIndex(r.Path, "/v1/")+3:]
				if i := strings.Index(collection[1:], "/"); i >= 0 {
					collection = collection[:i+1]
				}
				got = append(got, r.Method+" "+collection)
			}
			if strings.Join(got, ",") != tc.want {
				t.Errorf("requests %v, want %s", got, tc.want)
			}
			for _, g := range f.sp.Groups() {
				if n := len(g.Members); n != 1 {
					t.Errorf("group %q holds %v, want alice once", g.DisplayName, memberValues(g.Members))
				}
			}
		})
	}
}
