package stack

import (
	"context"
	"fmt"
	"net/http/httptest"
	"net/url"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/edu-invite/invite/localstack/scimsp"
	"github.com/edu-invite/invite/shared/auth"
	"github.com/edu-invite/invite/shared/domain"
	"github.com/edu-invite/invite/shared/metrics"
	"github.com/edu-invite/invite/shared/service"
)

// spVariant is a test SCIM SP that supports less than the sample SP.
type spVariant struct {
	id         string
	membership string // PATCH or PUT
	opts       scimsp.Options
	restart    bool // the SP loses all its data after the second acceptance
	sp         *scimsp.SP
	roleID     int64
	userIDs    []int64
	userRoles  []int64
	seen       int // requests of the SP's log already looked at
}

// The SP variants: one that refuses every filter, one that refuses
// externalId filters only, one without PATCH, and one (of each membership
// mode) that restarts empty mid-run. In each, one role and three
// acceptances, a removal, an expiry and the role's deletion leave the SP
// exactly equal to the service, with no dead letter, and where the SP keeps
// its data the requests are exactly the minimum: 1 for the group, 2 per
// acceptance of a person new to the SP, and for a removal the group change
// plus the user's deletion, 1 for the group's deletion. No look-up at all.
func TestDeliveryToSPsThatSupportLittle(t *testing.T) {
	variants := []*spVariant{
		{id: "no-filters", membership: "PATCH", opts: scimsp.Options{Filters: scimsp.FiltersNone}},
		{id: "no-externalid-filter", membership: "PATCH", opts: scimsp.Options{Filters: scimsp.FiltersNoExternalID}},
		{id: "no-patch", membership: "PUT", opts: scimsp.Options{NoPatch: true, Filters: scimsp.FiltersNone}},
		{id: "restarts-patch", membership: "PATCH", restart: true, opts: scimsp.Options{Filters: scimsp.FiltersNoExternalID}},
		{id: "restarts-put", membership: "PUT", restart: true, opts: scimsp.Options{Filters: scimsp.FiltersNone}},
	}
	var provisionings, applications []string
	for i, v := range variants {
		token := fmt.Sprintf("variant-token-%d", i)
		v.opts.BearerToken = token
		v.sp = scimsp.New(v.opts)
		srv := httptest.NewServer(v.sp.Handler())
		t.Cleanup(srv.Close)
		t.Setenv(fmt.Sprintf("SAMPLE_SP_TOKEN_VARIANT_%d", i), token)
		provisionings = append(provisionings, fmt.Sprintf(`{"id": %q, "baseUrl": %q, "membership": %q, "ratePerSecond": 500,
		  "auth": {"method": "bearer", "token": "env:SAMPLE_SP_TOKEN_VARIANT_%d"}}`, v.id, srv.URL, v.membership, i))
		applications = append(applications, fmt.Sprintf(`{"manageId": "app-%s", "manageType": "SAML20_SP", "name": "App %s",
		  "landingPage": "https://%s.example.org", "provisionings": [%q]}`, v.id, v.id, v.id, v.id))
	}
	clock := &testClock{}
	s := startTestStackWith(t, clock, fmt.Sprintf(`{"applications": [%s], "provisionings": [%s]}`,
		strings.Join(applications, ","), strings.Join(provisionings, ",")),
		Options{VisibilityTimeout: time.Second, PollInterval: 100 * time.Millisecond})
	outcomes := &outcomeCounter{counts: map[metrics.Outcome]int{}}
	s.App.Provisioner.Metrics = outcomes
	ctx := context.Background()
	admin := &auth.Principal{Kind: auth.KindAPIToken, SuperUser: true, Name: "variant-test"}
	email := func(v *spVariant, j int) string { return fmt.Sprintf("guest%d-%s@example.org", j, v.id) }

	// drained waits until the queue is empty and every SP holds the users
	// and the group (members by guest number; nil: no group) the service says.
	drained := func(phase string, users []int, members []int) {
		t.Helper()
		var problems []string
		check := func() bool {
			problems = problems[:0]
			if n := queueDepth(t, s, s.App.Settings.QueueURL); n > 0 || pollerBusy(s) {
				problems = append(problems, fmt.Sprintf("queue not drained (%d)", n))
				return false
			}
			for _, v := range variants {
				if d := variantDiff(v, users, members, email); d != "" {
					problems = append(problems, v.id+": "+d)
				}
			}
			return len(problems) == 0
		}
		deadline := time.Now().Add(60 * time.Second) // bounds a failing run only
		for !check() {
			if time.Now().After(deadline) {
				t.Fatalf("%s: %s", phase, strings.Join(problems, "; "))
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
	// requests returns the SP's requests since the last call, as
	// "METHOD /Collection" with the status, sorted.
	requests := func(v *spVariant) []string {
		all := v.sp.Requests()
		if v.seen > len(all) {
			v.seen = 0 // the SP restarted and forgot its log
		}
		var out []string
		for _, r := range all[v.seen:] {
			parts := strings.Split(strings.TrimPrefix(r.Path, "/v1/"), "/")
			out = append(out, fmt.Sprintf("%s /%s %d", r.Method, parts[0], r.Status))
		}
		v.seen = len(all)
		sort.Strings(out)
		return out
	}
	wantRequests := func(phase string, v *spVariant, want ...string) {
		t.Helper()
		sort.Strings(want)
		if got := requests(v); strings.Join(got, ", ") != strings.Join(want, ", ") {
			t.Errorf("%s at %s: requests %v, want exactly %v", phase, v.id, got, want)
		}
	}
	membershipChange := func(v *spVariant) string {
		if v.membership == "PUT" {
			return "PUT /Groups 200"
		}
		return "PATCH /Groups 200"
	}

	// One role per SP: one POST of the group.
	for _, v := range variants {
		role, err := s.App.Service.CreateRole(ctx, admin, service.RoleInput{Name: "Role at " + v.id, OrganizationGUID: "org-e2e", DefaultExpiryDays: 365,
			ApplicationUsages: []service.ApplicationUsageInput{{ManageID: "app-" + v.id, ManageType: "SAML20_SP"}}})
		if err != nil {
			t.Fatal(err)
		}
		v.roleID = role.ID
	}
	drained("role creation", nil, []int{})
	for _, v := range variants {
		wantRequests("role creation", v, "POST /Groups 201")
	}

	// Three acceptances each; guest 1's membership expires in an hour.
	for j := 0; j < 3; j++ {
		for _, v := range variants {
			if v.restart && j == 2 {
				v.sp.Reset() // the SP restarts empty: every id the service holds is stale
			}
			in := service.InvitationInput{IntendedAuthority: "GUEST", SuppressSendingEmails: true, RoleIDs: []int64{v.roleID},
				Invites: []string{email(v, j)}, ExpiryDate: ptr(clock.Now().Add(24 * time.Hour))}
			if j == 1 {
				in.RoleExpiryDate = ptr(clock.Now().Add(time.Hour))
			}
			res, err := s.App.Service.Invite(ctx, admin, in)
			if err != nil {
				t.Fatal(err)
			}
			link, err := url.Parse(res.URLs[0].InvitationURL)
			if err != nil {
				t.Fatal(err)
			}
			p := &auth.Principal{Kind: auth.KindPerson, Person: &auth.Person{Sub: "sub-" + email(v, j),
				EduPersonPrincipalName: email(v, j), Email: email(v, j), GivenName: "Guest", FamilyName: fmt.Sprint(j)}}
			acc, err := s.App.Service.Accept(ctx, p, link.Query().Get("hash"), 0)
			if err != nil {
				t.Fatal(err)
			}
			v.userIDs = append(v.userIDs, acc.User.ID)
			v.userRoles = append(v.userRoles, acc.UserRoles[0].ID)
		}
		drained(fmt.Sprintf("acceptance %d", j), upTo(j), upTo(j))
		for _, v := range variants {
			if v.restart && j == 2 {
				requests(v) // the repair's requests: not the minimum, by design
				continue
			}
			wantRequests(fmt.Sprintf("acceptance %d", j), v, "POST /Users 201", membershipChange(v))
		}
	}

	// A removal (guest 0, whose last membership it is: deleted at the SP too).
	for _, v := range variants {
		out, err := s.App.Service.RemoveUserRole(ctx, admin, v.userRoles[0], false)
		if err != nil || !out.UserDeleted {
			t.Fatalf("remove guest 0 at %s: %+v, %v", v.id, out, err)
		}
	}
	drained("removal", []int{1, 2}, []int{1, 2})
	for _, v := range variants {
		wantRequests("removal", v, membershipChange(v), "DELETE /Users 204")
	}

	// The expiry of guest 1.
	clock.Advance(2 * time.Hour)
	if _, err := s.RunJob(ctx, "expiry"); err != nil {
		t.Fatal(err)
	}
	drained("expiry", []int{2}, []int{2})
	for _, v := range variants {
		wantRequests("expiry", v, membershipChange(v), "DELETE /Users 204")
	}

	// The role's deletion: its group goes, and guest 2, whose last
	// membership it was, goes too (as on an expiry or a removal).
	for _, v := range variants {
		if err := s.App.Service.DeleteRole(ctx, admin, v.roleID); err != nil {
			t.Fatal(err)
		}
	}
	drained("role deletion", nil, nil)
	for _, v := range variants {
		wantRequests("role deletion", v, "DELETE /Groups 204", "DELETE /Users 204")
	}

	if o := outcomes.snapshot(); o[metrics.DeadLettered] != 0 {
		t.Fatalf("%d deliveries dead-lettered", o[metrics.DeadLettered])
	}
	if n := queueDepth(t, s, s.App.Settings.DeadLetterURL); n != 0 {
		t.Fatalf("the DLQ holds %d messages", n)
	}
	// Truthful status: guest 2 is gone in the service and at each SP.
	for _, v := range variants {
		if _, err := s.App.Store.GetUser(ctx, v.userIDs[2]); !domain.IsNotFound(err) {
			t.Fatalf("%s: guest 2 after the deletion of its last role: %v", v.id, err)
		}
		if users := v.sp.Users(); len(users) != 0 {
			t.Fatalf("%s: SP users %+v, want none", v.id, users)
		}
	}
}

func upTo(j int) []int {
	out := []int{}
	for i := 0; i <= j; i++ {
		out = append(out, i)
	}
	return out
}

// variantDiff says how the SP differs from the given users and group
// (members by guest number; nil: no group), or "".
func variantDiff(v *spVariant, users, members []int, email func(*spVariant, int) string) string {
	var problems []string
	byID := map[string]string{}
	want := map[string]bool{}
	for _, j := range users {
		want[email(v, j)] = true
	}
	got := v.sp.Users()
	for _, u := range got {
		byID[u.ID] = u.UserName
		if !want[u.UserName] {
			problems = append(problems, "extra user "+u.UserName)
		}
	}
	if len(got) != len(users) {
		problems = append(problems, fmt.Sprintf("%d users, want %d", len(got), len(users)))
	}
	groups := v.sp.Groups()
	if members == nil {
		if len(groups) != 0 {
			problems = append(problems, fmt.Sprintf("%d groups, want none", len(groups)))
		}
		return strings.Join(problems, "; ")
	}
	if len(groups) != 1 {
		return strings.Join(append(problems, fmt.Sprintf("%d groups, want 1", len(groups))), "; ")
	}
	var gotMembers, wantMembers []string
	for _, m := range groups[0].Members {
		gotMembers = append(gotMembers, byID[m.Value])
	}
	for _, j := range members {
		wantMembers = append(wantMembers, email(v, j))
	}
	sort.Strings(gotMembers)
	sort.Strings(wantMembers)
	if strings.Join(gotMembers, ",") != strings.Join(wantMembers, ",") {
		problems = append(problems, fmt.Sprintf("members %v, want %v", gotMembers, wantMembers))
	}
	return strings.Join(problems, "; ")
}
