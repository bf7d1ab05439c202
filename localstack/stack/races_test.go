package stack

import (
	"context"
	"fmt"
	"net/http/httptest"
	"net/url"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/edu-invite/invite/localstack/scimsp"
	"github.com/edu-invite/invite/shared/auth"
	"github.com/edu-invite/invite/shared/domain"
	"github.com/edu-invite/invite/shared/provisioner"
	"github.com/edu-invite/invite/shared/service"
)

// raceStack is the local stack with an SP of the test's (PATCH, its add
// idempotent) behind one SCIM application, "race-app", and a second
// application, "race-mail", that no SP provisions.
type raceStack struct {
	t     *testing.T
	s     *Stack
	sp    *scimsp.SP
	admin *auth.Principal
}

func startRaceStack(t *testing.T) *raceStack {
	t.Helper()
	sp := scimsp.New(scimsp.Options{BearerToken: "race-token"})
	srv := httptest.NewServer(sp.Handler())
	t.Cleanup(srv.Close)
	t.Setenv("SAMPLE_SP_TOKEN_RACE", "race-token")
	s := startTestStackWith(t, &testClock{}, fmt.Sprintf(`{"applications": [
	    {"manageId": "race-app", "manageType": "SAML20_SP", "name": "Race", "landingPage": "https://race.example.org", "provisionings": ["sp-race"]},
	    {"manageId": "race-mail", "manageType": "SAML20_SP", "name": "Mail", "landingPage": "https://mail.example.org"}],
	  "provisionings": [{"id": "sp-race", "baseUrl": %q, "membership": "PATCH", "ratePerSecond": 500,
	    "auth": {"method": "bearer", "token": "env:SAMPLE_SP_TOKEN_RACE"}}]}`, srv.URL),
		Options{VisibilityTimeout: time.Second, PollInterval: 100 * time.Millisecond})
	s.App.Provisioner.Retry = provisioner.RetryPolicy{Base: 200 * time.Millisecond, Max: time.Second}
	return &raceStack{t: t, s: s, sp: sp, admin: &auth.Principal{Kind: auth.KindAPIToken, SuperUser: true, Name: "race-test"}}
}

func racePerson(name string) auth.Person {
	email := name + "@example.org"
	return auth.Person{Sub: "sub-" + email, EduPersonPrincipalName: email, Email: email, GivenName: "Given", FamilyName: name, Name: "Given " + name}
}

// accept invites the person to the role as a guest and accepts.
func (r *raceStack) accept(roleID int64, p auth.Person) {
	r.t.Helper()
	ctx := context.Background()
	res, err := r.s.App.Service.Invite(ctx, r.admin, service.InvitationInput{IntendedAuthority: string(domain.Guest),
		SuppressSendingEmails: true, RoleIDs: []int64{roleID}, Invites: []string{p.Email}, ExpiryDate: ptr(time.Now().Add(24 * time.Hour))})
	if err != nil {
		r.t.Error(err)
		return
	}
	link, err := url.Parse(res.URLs[0].InvitationURL)
	if err != nil {
		r.t.Error(err)
		return
	}
	if _, err := r.s.App.Service.Accept(ctx, &auth.Principal{Kind: auth.KindPerson, Person: &p}, link.Query().Get("hash"), 0); err != nil {
		r.t.Error(err)
	}
}

// group is the SP's group of that name in any case, and its members' userNames.
func (r *raceStack) group(name string) (string, []string) {
	users := map[string]string{}
	for _, u := range r.sp.Users() {
		users[u.ID] = u.UserName
	}
	for _, g := range r.sp.Groups() {
		if strings.EqualFold(g.DisplayName, name) {
			var members []string
			for _, m := range g.Members {
				members = append(members, users[m.Value])
			}
			sort.Strings(members)
			return g.DisplayName, members
		}
	}
	return "", nil
}

// settled waits until cond holds, then checks that it still holds once
// whatever else was queued has had time to run.
func (r *raceStack) settled(what string, cond func() bool) {
	r.t.Helper()
	eventually(r.t, what, cond)
	time.Sleep(3 * time.Second)
	if !cond() {
		r.t.Errorf("%s held, then a later delivery undid it", what)
	}
}

// A role renamed (also in case only) or given its SCIM application within
// moments of an acceptance, the two requests at once through the real
// queue and provisioner: once settled the SP group has the new name and
// every member the service holds.
func TestRoleChangeAtTheMomentOfAnAcceptanceSettlesAtTheSP(t *testing.T) {
	r := startRaceStack(t)
	ctx := context.Background()
	for i, tc := range []struct {
		name, before, after string
		withApp             bool
	}{
		{"rename", "Lab one", "Lab renamed", false},
		{"case-only rename", "Lab two", "LAB TWO", false},
		{"application added", "Lab three", "Lab three", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r.t = t
			app := "race-app"
			if tc.withApp {
				app = "race-mail"
			}
			role, err := r.s.App.Service.CreateRole(ctx, r.admin, service.RoleInput{Name: tc.before, OrganizationGUID: "org-race",
				ApplicationUsages: []service.ApplicationUsageInput{{ManageID: app}}})
			if err != nil {
				t.Fatal(err)
			}
			first, second := racePerson(fmt.Sprint("first", i)), racePerson(fmt.Sprint("second", i))
			r.accept(role.ID, first)
			if !tc.withApp {
				r.settled("the first member at the SP", func() bool { _, m := r.group(tc.before); return len(m) == 1 })
			}
			apps := []service.ApplicationUsageInput{{ManageID: "race-app"}}
			if tc.withApp {
				apps = append(apps, service.ApplicationUsageInput{ManageID: "race-mail"})
			}
			var wg sync.WaitGroup
			wg.Add(2)
			go func() {
				defer wg.Done()
				if _, err := r.s.App.Service.UpdateRole(ctx, r.admin, role.ID, service.RoleInput{Name: tc.after, ApplicationUsages: apps}); err != nil {
					t.Error(err)
				}
			}()
			go func() {
				defer wg.Done()
				r.accept(role.ID, second)
			}()
			wg.Wait()
			want := []string{first.Email, second.Email}
			sort.Strings(want)
			r.settled("the group renamed with both members", func() bool {
				name, members := r.group(tc.after)
				return name == tc.after && slices.Equal(members, want)
			})
		})
	}
}

// A sign-in with new attributes right after a user's first acceptance,
// while the user's creation at the SP is queued or under way: the SP user
// ends with the new name.
func TestSignInRightAfterTheFirstAcceptanceReachesTheSPThroughTheQueue(t *testing.T) {
	r := startRaceStack(t)
	ctx := context.Background()
	role, err := r.s.App.Service.CreateRole(ctx, r.admin, service.RoleInput{Name: "Signers", OrganizationGUID: "org-race",
		ApplicationUsages: []service.ApplicationUsageInput{{ManageID: "race-app"}}})
	if err != nil {
		t.Fatal(err)
	}
	for i := range 3 {
		p := racePerson(fmt.Sprint("signer", i))
		r.accept(role.ID, p)
		if i > 0 {
			time.Sleep(time.Duration(i) * 150 * time.Millisecond) // the creation queued, then under way
		}
		u, err := r.s.App.Store.GetUserBySub(ctx, p.Sub)
		if err != nil {
			t.Fatal(err)
		}
		renamed := p
		renamed.GivenName, renamed.Name = "Renamed", "Renamed "+p.FamilyName
		if _, err := r.s.App.Service.PersonLoggedIn(ctx, u, renamed); err != nil {
			t.Fatal(err)
		}
		r.settled("the SP user renamed", func() bool {
			for _, su := range r.sp.Users() {
				if su.UserName == p.Email {
					return su.Name != nil && su.Name.GivenName == "Renamed"
				}
			}
			return false
		})
	}
}
