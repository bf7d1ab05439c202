package stack

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/edu-invite/invite/localstack/scimsp"
	"github.com/edu-invite/invite/localstack/substitutes"
	"github.com/edu-invite/invite/shared/app"
	"github.com/edu-invite/invite/shared/domain"
)

// lifecycleFixture is a local stack with two SPs, each the target of one
// application, and helpers to drive it.
type lifecycleFixture struct {
	t      testing.TB
	s      *Stack
	c      client
	clock  *testClock
	spA    *scimsp.SP
	spB    *scimsp.SP
	admin  map[string]string
	tokens map[string]string
}

func newLifecycleFixture(t *testing.T) *lifecycleFixture {
	t.Helper()
	return newLifecycleFixtureWith(t, func(h http.Handler) http.Handler { return h })
}

// newLifecycleFixtureWith wraps SP A's handler, e.g. to slow it down.
func newLifecycleFixtureWith(t testing.TB, wrapA func(http.Handler) http.Handler) *lifecycleFixture {
	t.Helper()
	return newLifecycleFixtureCounting(t, wrapA, nil, lifecycleSPARate)
}

// lifecycleSPARate is SP A's rate limit (requests per second) in the tests.
const lifecycleSPARate = 500

// newLifecycleFixtureCounting also counts the stack's AWS requests in calls
// and sets SP A's rate limit (the benchmarks raise it out of the way).
func newLifecycleFixtureCounting(t testing.TB, wrapA func(http.Handler) http.Handler, calls *AWSCalls, rateA int) *lifecycleFixture {
	t.Helper()
	return newLifecycleFixtureOf(t, scimsp.Options{}, wrapA, calls, rateA)
}

// newLifecycleFixtureOf is newLifecycleFixtureCounting with more options of
// SP A (its token is the fixture's).
func newLifecycleFixtureOf(t testing.TB, optsA scimsp.Options, wrapA func(http.Handler) http.Handler, calls *AWSCalls, rateA int) *lifecycleFixture {
	t.Helper()
	optsA.BearerToken = "token-a"
	spA, spB := scimsp.New(optsA), scimsp.New(scimsp.Options{BearerToken: "token-b"})
	srvA, srvB := httptest.NewServer(wrapA(spA.Handler())), httptest.NewServer(spB.Handler())
	t.Cleanup(srvA.Close)
	t.Cleanup(srvB.Close)
	t.Setenv("SAMPLE_SP_TOKEN_A", "token-a")
	t.Setenv("SAMPLE_SP_TOKEN_B", "token-b")
	clock := &testClock{}
	s := startTestStackWith(t, clock, fmt.Sprintf(`{
	  "applications": [
	    {"manageId": "app-a", "manageType": "SAML20_SP", "name": "Wiki", "landingPage": "https://wiki.example.org", "provisionings": ["sp-a"]},
	    {"manageId": "app-b", "manageType": "OIDC10_RP", "name": "Lab", "landingPage": "https://lab.example.org", "provisionings": ["sp-b"]}
	  ],
	  "provisionings": [
	    {"id": "sp-a", "baseUrl": %q, "ratePerSecond": %d, "auth": {"method": "bearer", "token": "env:SAMPLE_SP_TOKEN_A"}},
	    {"id": "sp-b", "baseUrl": %q, "membership": "PUT", "auth": {"method": "bearer", "token": "env:SAMPLE_SP_TOKEN_B"}}
	  ]}`, srvA.URL, rateA, srvB.URL), Options{VisibilityTimeout: time.Second, PollInterval: 200 * time.Millisecond, CountAWS: calls})
	return &lifecycleFixture{t: t, s: s, c: client{t: t, base: s.URL}, clock: clock, spA: spA, spB: spB,
		admin: map[string]string{"X-API-TOKEN": "e2e-bootstrap-token-0123456789abcdef"}, tokens: map[string]string{}}
}

func (f *lifecycleFixture) createRole(name, app string, days int) int64 {
	f.t.Helper()
	var role struct {
		ID int64 `json:"id"`
	}
	if got := f.c.do("POST", "/api/v1/roles", f.admin, map[string]any{"name": name, "organizationGUID": "org-lifecycle", "defaultExpiryDays": days,
		"applicationUsages": []any{map[string]any{"application": map[string]any{"manageId": app}}}}, &role); got != http.StatusCreated {
		f.t.Fatalf("create role %s = %d", name, got)
	}
	return role.ID
}

// inviteAndAccept invites email to the roles and accepts as that person.
func (f *lifecycleFixture) inviteAndAccept(email, language, message string, roleIDs ...int64) {
	f.t.Helper()
	var res struct {
		URLs []struct {
			InvitationURL string `json:"invitationURL"`
		} `json:"recipientInvitationURLs"`
		IDs []int64 `json:"invitationIdentifiers"`
	}
	if got := f.c.do("POST", "/api/external/v1/invitations", f.admin, map[string]any{"intendedAuthority": "GUEST",
		"language": language, "message": message, "invites": []string{email}, "roleIdentifiers": roleIDs,
		"expiryDate": f.clock.Now().Add(24 * time.Hour).Unix()}, &res); got != http.StatusCreated {
		f.t.Fatalf("invite %s = %d", email, got)
	}
	hash := linkPattern.FindStringSubmatch(res.URLs[0].InvitationURL)[1]
	name := strings.Split(email, "@")[0]
	tok, err := f.s.IdP.Mint(map[string]any{"sub": "sub-" + name, "eduperson_principal_name": email, "email": email,
		"given_name": strings.ToUpper(name[:1]) + name[1:], "family_name": "Guest"}, "invite", 1000*time.Hour)
	if err != nil {
		f.t.Fatal(err)
	}
	f.tokens[email] = tok
	if got := f.c.do("POST", "/api/v1/invitations/accept", map[string]string{"Authorization": "Bearer " + tok,
		"X-Correlation-Id": "accept-" + name}, map[string]any{"hash": hash, "invitationId": res.IDs[0]}, nil); got != http.StatusCreated {
		f.t.Fatalf("accept %s = %d", email, got)
	}
}

// runTwice runs the expiry job twice at the current time, as two
// overlapping or retried schedules would.
func (f *lifecycleFixture) runTwice() {
	f.t.Helper()
	for i := 0; i < 2; i++ {
		if _, err := f.s.RunJob(context.Background(), "expiry"); err != nil {
			f.t.Fatal(err)
		}
	}
}

func (f *lifecycleFixture) mails(to, subjectPart string) []substitutes.Mail {
	f.t.Helper()
	all, err := f.s.SES.Mails(context.Background())
	if err != nil {
		f.t.Fatal(err)
	}
	var out []substitutes.Mail
	for _, m := range all {
		if len(m.To) > 0 && m.To[0] == to && strings.Contains(m.Subject, subjectPart) {
			out = append(out, m)
		}
	}
	return out
}

func (f *lifecycleFixture) wantMails(to, subjectPart string, n int) {
	f.t.Helper()
	eventually(f.t, fmt.Sprintf("%d mails to %s about %q", n, to, subjectPart), func() bool { return len(f.mails(to, subjectPart)) >= n })
	if got := len(f.mails(to, subjectPart)); got != n {
		f.t.Fatalf("%d mails to %s about %q, want exactly %d", got, to, subjectPart, n)
	}
}

func members(sp *scimsp.SP) int {
	n := 0
	for _, g := range sp.Groups() {
		n += len(g.Members)
	}
	return n
}

func TestLifecycleRemindersAndExpiry(t *testing.T) {
	f := newLifecycleFixture(t)
	roleA := f.createRole("Wiki editors", "app-a", 10)
	roleB := f.createRole("Lab members", "app-b", 40)
	const alice = "alice@example.org"
	f.inviteAndAccept(alice, "nl", "Welkom!", roleA, roleB)
	eventually(t, "alice at both SPs in both groups", func() bool {
		return len(f.spA.Users()) == 1 && len(f.spB.Users()) == 1 && members(f.spA) == 1 && members(f.spB) == 1
	})

	// Reminders for role A (10 days): the 30-day one at once, then at 7 and
	// 1 day left; each exactly once although the job runs twice each time.
	// Alice was invited in Dutch, so her reminders are Dutch.
	steps := []struct {
		at          time.Duration
		wantA       int
		wantB       int
		description string
	}{
		{0, 1, 0, "10 days left of A: inside 30"},
		{3*24*time.Hour + time.Hour, 2, 0, "7 days left of A"},
		{9*24*time.Hour + time.Hour, 3, 0, "1 day left of A"},
	}
	for _, step := range steps {
		f.clock.Set(step.at)
		f.runTwice()
		f.wantMails(alice, "Je toegang tot Wiki editors verloopt", step.wantA)
		f.wantMails(alice, "Je toegang tot Lab members verloopt", step.wantB)
	}

	// A ends: the membership goes at SP A, alice stays there and everywhere.
	f.clock.Set(10*24*time.Hour + time.Hour)
	f.runTwice()
	eventually(t, "alice out of the group at SP A", func() bool { return members(f.spA) == 0 })
	if len(f.spA.Users()) != 1 || len(f.spB.Users()) != 1 || members(f.spB) != 1 {
		t.Fatalf("after A expired: SP A users %d, SP B users %d members %d", len(f.spA.Users()), len(f.spB.Users()), members(f.spB))
	}
	f.wantMails(alice, "Je toegang tot Wiki editors is beëindigd", 1)
	// 30 days left of B now: its first reminder.
	f.wantMails(alice, "Je toegang tot Lab members verloopt", 1)
	var me errorBody
	if got := f.c.do("GET", "/api/v1/roles/"+fmt.Sprint(roleB), map[string]string{"Authorization": "Bearer " + f.tokens[alice]}, nil, &me); got != 200 {
		t.Fatalf("alice lost access to role B: %d %+v", got, me)
	}

	// B ends too: alice is deleted at both SPs and in the service.
	f.clock.Set(40*24*time.Hour + time.Hour)
	f.runTwice()
	eventually(t, "alice deleted at both SPs", func() bool { return len(f.spA.Users()) == 0 && len(f.spB.Users()) == 0 })
	if len(f.spA.Groups()) != 1 || len(f.spB.Groups()) != 1 || members(f.spB) != 0 {
		t.Fatalf("groups must stay, empty: A %+v B %+v", f.spA.Groups(), f.spB.Groups())
	}
	if _, err := f.s.App.Store.GetUserBySub(context.Background(), "sub-alice"); err == nil {
		t.Fatal("alice is still a user of the service")
	}
	f.wantMails(alice, "Je toegang tot Lab members is beëindigd", 1)
	f.wantMails(alice, "Je toegang tot Wiki editors verloopt", 3) // nothing more came
}

func TestExpiryWithoutReminders(t *testing.T) {
	f := newLifecycleFixture(t)
	f.s.App.Service.Lifecycle.ReminderDays = []int{} // REMINDER_DAYS=off
	role := f.createRole("Short visit", "app-a", 2)
	const bob = "bob@example.org"
	f.inviteAndAccept(bob, "en", "", role)
	eventually(t, "bob at SP A", func() bool { return len(f.spA.Users()) == 1 && members(f.spA) == 1 })
	f.runTwice()
	f.clock.Set(2*24*time.Hour + time.Minute)
	f.runTwice()
	eventually(t, "bob gone at SP A", func() bool { return len(f.spA.Users()) == 0 })
	f.wantMails(bob, "ends", 0)
	f.wantMails(bob, "Your access to Short visit has ended", 1)
}

func TestInvitationMailsInBothLanguagesAndEscaped(t *testing.T) {
	f := newLifecycleFixture(t)
	role := f.createRole("Lab <b>members</b>", "app-b", 40)
	for _, tc := range []struct{ to, lang, subject, phrase string }{
		{"carol@example.org", "en", "You have been invited to Lab <b>members</b>", "Accept the invitation"},
		{"dirk@example.org", "nl", "Je bent uitgenodigd voor Lab <b>members</b>", "uitnodiging"},
	} {
		if got := f.c.do("POST", "/api/external/v1/invitations", f.admin, map[string]any{"intendedAuthority": "GUEST",
			"language": tc.lang, "message": "<script>alert(1)</script>", "invites": []string{tc.to}, "roleIdentifiers": []int64{role},
			"expiryDate": f.clock.Now().Add(24 * time.Hour).Unix()}, nil); got != http.StatusCreated {
			t.Fatalf("invite %s = %d", tc.to, got)
		}
		f.wantMails(tc.to, tc.subject, 1)
		m := f.mails(tc.to, tc.subject)[0]
		if strings.Contains(m.HTML, "<script>") || !strings.Contains(m.HTML, "&lt;script&gt;alert(1)&lt;/script&gt;") {
			t.Errorf("%s: the personal message is not escaped in HTML", tc.lang)
		}
		if strings.Contains(m.HTML, "<b>members</b>") {
			t.Errorf("%s: the role name is not escaped in HTML", tc.lang)
		}
		if !strings.Contains(m.Text, tc.phrase) && !strings.Contains(m.HTML, tc.phrase) {
			t.Errorf("%s: mail lacks %q:\n%s", tc.lang, tc.phrase, m.Text)
		}
		if !strings.Contains(m.HTML, "https://lab.example.org") || !linkPattern.MatchString(m.Text) {
			t.Errorf("%s: landing page or accept link missing", tc.lang)
		}
	}
}

// Expired invitations are kept for a year (their link answers 410, as in
// the reference), then purged.
func TestCleanupDeletesInvitationsExpiredForAYearOnly(t *testing.T) {
	f := newLifecycleFixture(t)
	role := f.createRole("Visitors", "app-a", 5)
	invite := func(email string) string {
		var res struct {
			URLs []struct {
				InvitationURL string `json:"invitationURL"`
			} `json:"recipientInvitationURLs"`
		}
		f.c.do("POST", "/api/external/v1/invitations", f.admin, map[string]any{"intendedAuthority": "GUEST",
			"invites": []string{email}, "roleIdentifiers": []int64{role}, "suppressSendingEmails": true,
			"expiryDate": f.clock.Now().Add(24 * time.Hour).Unix()}, &res)
		return linkPattern.FindStringSubmatch(res.URLs[0].InvitationURL)[1]
	}
	stale := invite("late@example.org")
	f.clock.Set(12 * time.Hour)
	fresh := invite("fresh@example.org")
	f.clock.Set(25 * time.Hour)
	res, err := f.s.RunJob(context.Background(), "cleanup")
	if err != nil {
		t.Fatal(err)
	}
	if got := res.(app.CleanupResult).Invitations; got != 0 {
		t.Fatalf("cleanup removed %d invitations expired an hour ago, want 0", got)
	}
	if got := f.c.do("GET", "/api/v1/invitations/public?hash="+stale, nil, nil, nil); got != http.StatusGone {
		t.Fatalf("expired invitation = %d, want 410", got)
	}
	if got := f.c.do("GET", "/api/v1/invitations/public?hash="+fresh, nil, nil, nil); got != http.StatusOK {
		t.Fatalf("open invitation = %d, want 200", got)
	}
	// A year after the first expired: it goes; the second, expired 11 hours
	// later, stays a little longer.
	f.clock.Set(25*time.Hour + 365*24*time.Hour)
	if res, err = f.s.RunJob(context.Background(), "cleanup"); err != nil {
		t.Fatal(err)
	}
	if got := res.(app.CleanupResult).Invitations; got != 1 {
		t.Fatalf("cleanup removed %d invitations, want 1", got)
	}
	if got := f.c.do("GET", "/api/v1/invitations/public?hash="+stale, nil, nil, nil); got != http.StatusNotFound {
		t.Fatalf("invitation expired a year ago after cleanup = %d, want 404", got)
	}
	if got := f.c.do("GET", "/api/v1/invitations/public?hash="+fresh, nil, nil, nil); got != http.StatusGone {
		t.Fatalf("invitation expired less than a year ago = %d, want 410", got)
	}
}

func TestMaintenanceEndpointsAndEndDateChange(t *testing.T) {
	f := newLifecycleFixture(t)
	role := f.createRole("Wiki editors", "app-a", 10)
	const alice = "alice@example.org"
	f.inviteAndAccept(alice, "en", "", role)
	guest := map[string]string{"Authorization": "Bearer " + f.tokens[alice]}

	var expiring []struct {
		ID     int64  `json:"id"`
		UserID int64  `json:"userId"`
		RoleID int64  `json:"roleId"`
		End    string `json:"endDate"`
	}
	if got := f.c.do("GET", "/api/v1/system/expiry-user-roles", f.admin, nil, &expiring); got != 200 || len(expiring) != 1 || expiring[0].RoleID != role {
		t.Fatalf("S4 = %d %+v, want alice's membership", got, expiring)
	}
	var e errorBody
	if got := f.c.do("GET", "/api/v1/system/expiry-user-roles", guest, nil, &e); got != http.StatusForbidden {
		t.Fatalf("S4 as a guest = %d, want 403", got)
	}
	e.check(t, 403, "/api/v1/system/expiry-user-roles")

	// S5 is a job: 202, then its result counts the reminders per lead
	// time (the job keeps no addresses).
	var sent struct {
		Reminded map[string]int `json:"reminded"`
	}
	if got := f.c.runJob("GET", "/api/v1/system/cron/expiry-notifications", f.admin, &sent); got != http.StatusAccepted || sent.Reminded["30 days"] != 1 {
		t.Fatalf("S5 = %d %v", got, sent)
	}
	sent.Reminded = nil
	if got := f.c.runJob("GET", "/api/v1/system/cron/expiry-notifications", f.admin, &sent); got != http.StatusAccepted || len(sent.Reminded) != 0 {
		t.Fatalf("S5 again = %d %v, want nothing sent twice", got, sent)
	}

	// U7: a guest may not move their own end date; an admin may, and the
	// membership leaves the 30-day window.
	body := map[string]any{"userRoleId": expiring[0].ID, "endDate": f.clock.Now().AddDate(0, 2, 0).Format(time.RFC3339)}
	if got := f.c.do("PUT", "/api/v1/user_roles", guest, body, &e); got != http.StatusForbidden {
		t.Fatalf("U7 as the guest = %d, want 403", got)
	}
	if got := f.c.do("PUT", "/api/v1/user_roles", f.admin, map[string]any{"userRoleId": expiring[0].ID, "endDate": "yesterday"}, &e); got != http.StatusBadRequest {
		t.Fatalf("U7 with a bad date = %d, want 400", got)
	}
	if got := f.c.do("PUT", "/api/v1/user_roles", f.admin, body, nil); got != http.StatusOK {
		t.Fatalf("U7 = %d", got)
	}
	expiring = nil
	if got := f.c.do("GET", "/api/v1/system/expiry-user-roles", f.admin, nil, &expiring); got != 200 || len(expiring) != 0 {
		t.Fatalf("S4 after U7 = %+v, want none within 30 days", expiring)
	}
	audit, err := f.s.App.Store.ListAuditEntriesOfRole(context.Background(), role)
	if err != nil {
		t.Fatal(err)
	}
	actions := ""
	for _, a := range audit {
		// Memberships: not provisioning outcomes, nor the role's own
		// changes and invitations.
		if a.DeliveryID == "" && (a.Action == domain.AuditAdd || a.Action == domain.AuditUpdate || a.Action == domain.AuditDelete) {
			actions += string(a.Action) + " "
		}
	}
	if actions != "ADD UPDATE " {
		t.Fatalf("membership audit of the role = %q, want ADD then UPDATE", actions)
	}

	var cleaned struct {
		Invitations int `json:"invitations"`
	}
	if got := f.c.runJob("GET", "/api/v1/system/cron/cleanup", f.admin, &cleaned); got != http.StatusAccepted {
		t.Fatalf("S6 = %d", got)
	}
}
