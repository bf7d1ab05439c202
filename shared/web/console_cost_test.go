package web

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/edu-invite/invite/shared/auth"
	"github.com/edu-invite/invite/shared/config"
	"github.com/edu-invite/invite/shared/domain"
	"github.com/edu-invite/invite/shared/dynamo"
	"github.com/edu-invite/invite/shared/dynamo/dynamotest"
	"github.com/edu-invite/invite/shared/service"
)

// countingHTTP counts the DynamoDB requests the SDK sends.
type countingHTTP struct {
	n atomic.Int64
}

func (c *countingHTTP) Do(r *http.Request) (*http.Response, error) {
	c.n.Add(1)
	return http.DefaultClient.Do(r)
}

// consoleFixture is the console on a table of DynamoDB Local seeded by the
// performance seed, with a super user's principal: roles with members, the
// first role on the sample application with its members' SP links and two
// invitations.
type consoleFixture struct {
	pages   *Pages
	counter *countingHTTP
	super   *auth.Principal
	roleID  int64
}

func newConsoleFixture(tb testing.TB, roles, users int) *consoleFixture {
	tb.Helper()
	client, table := dynamotest.NewClient(tb)
	counter := &countingHTTP{}
	counting := dynamodb.New(client.Options(), func(o *dynamodb.Options) { o.HTTPClient = counter })
	now := time.Date(2026, 11, 24, 8, 0, 0, 0, time.UTC)
	clock := func() time.Time { return now }
	store := dynamo.New(counting, table, clock)
	registry, err := config.Parse([]byte(`{"applications": [{"manageId": "sample-app", "manageType": "SAML20_SP", "name": "Sample application",
	  "landingPage": "https://sample.example.org", "provisionings": ["sample-sp"]}],
	  "provisionings": [{"id": "sample-sp", "name": "Sample SCIM SP", "baseUrl": "https://sp.example.org/scim", "version": "v1",
	  "membership": "PATCH", "userIdentifier": "eduPersonPrincipalName", "auth": {"method": "bearer", "token": "env:NO_SUCH_TOKEN"}}]}`))
	if err != nil {
		tb.Fatal(err)
	}
	svc := &service.Service{Store: store, Registry: registry, Clock: clock, Session: service.SessionSettings{PerformanceSeedAllowed: true}}
	super := &auth.Principal{Kind: auth.KindPerson, SuperUser: true, Name: "bench", Person: &auth.Person{Name: "Bench"}}
	seed, err := svc.PerformanceSeed(context.Background(), super, roles, users)
	if err != nil {
		tb.Fatal(err)
	}
	// The first seeded role gets the sample application and SP links for
	// its members, as provisioned members have.
	role, err := store.GetRole(context.Background(), seed.FirstRole)
	if err != nil {
		tb.Fatal(err)
	}
	role.ApplicationUsages = []domain.ApplicationUsage{{LandingPage: "https://sample.example.org", Application: domain.Application{ManageID: "sample-app", ManageType: "SAML20_SP"}}}
	if err := store.UpdateRole(context.Background(), role, nil); err != nil {
		tb.Fatal(err)
	}
	for i := 0; i < users; i += roles {
		l := domain.SPLink{Kind: domain.ResourceUser, LocalID: seed.FirstUser + int64(i), SPID: "sample-sp", RemoteID: fmt.Sprint("r", i),
			Status: domain.StatusProvisioned, UpdatedAt: now}
		if err := store.PutLink(context.Background(), l); err != nil {
			tb.Fatal(err)
		}
	}
	// Invitations of the first role, one of them to a second role too.
	invs := []domain.Invitation{
		{ID: 900001, IntendedAuthority: domain.Guest, Status: domain.InvitationOpen, Email: "open@example.org", CreatedAt: now,
			ExpiryDate: now.Add(14 * 24 * time.Hour), RoleIDs: []int64{seed.FirstRole, seed.FirstRole + 1}, HashDigest: "bench-1"},
		{ID: 900002, IntendedAuthority: domain.Guest, Status: domain.InvitationOpen, Email: "expired@example.org", CreatedAt: now.AddDate(0, -1, 0),
			ExpiryDate: now.Add(-24 * time.Hour), RoleIDs: []int64{seed.FirstRole}, HashDigest: "bench-2"},
	}
	if err := store.CreateInvitations(context.Background(), invs); err != nil {
		tb.Fatal(err)
	}
	pages, err := New(Config{Service: svc, Authenticator: &auth.Authenticator{}, Sessions: store, Clock: clock})
	if err != nil {
		tb.Fatal(err)
	}
	return &consoleFixture{pages: pages, counter: counter, super: super, roleID: seed.FirstRole}
}

// get serves one console page as the super user, straight to its handler
// (no session read), and answers the status and the DynamoDB requests.
func (f *consoleFixture) get(tb testing.TB, method, target string, h http.HandlerFunc, pathID string) (int, int64) {
	var r *http.Request
	if path, form, ok := strings.Cut(target, "?"); ok && method == "POST" {
		r = httptest.NewRequest(method, path, strings.NewReader(form))
		r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	} else {
		r = httptest.NewRequest(method, target, nil)
	}
	if pathID != "" {
		r.SetPathValue("id", pathID)
	}
	r = r.WithContext(context.WithValue(r.Context(), visitKey{}, &visit{principal: f.super, acceptLanguage: "en"}))
	w := httptest.NewRecorder()
	before := f.counter.n.Load()
	h(w, r)
	return w.Code, f.counter.n.Load() - before
}

// methodOf is how the console asks for a page: the next members of a
// role are posted (their position holds a name), the rest is GET.
func methodOf(target string) string {
	if strings.Contains(target, "?after=") {
		return "POST"
	}
	return "GET"
}

// body serves one console page as the super user and answers its HTML.
func (f *consoleFixture) body(tb testing.TB, target string, h http.HandlerFunc, pathID string) string {
	r := httptest.NewRequest("GET", target, nil)
	r.SetPathValue("id", pathID)
	r = r.WithContext(context.WithValue(r.Context(), visitKey{}, &visit{principal: f.super, acceptLanguage: "en"}))
	w := httptest.NewRecorder()
	h(w, r)
	return w.Body.String()
}

// TestConsoleRequestCounts records how many DynamoDB requests each list
// page costs on a seeded table, so that a change that adds requests per
// row shows here. The issue asks for at most 3 per list page: the people
// list and search (word items carry the sort name and words, then one
// BatchGetItem of the page), the role list (the roles' member counters in
// one BatchGetItem) and a role's page, first and next (the role with its
// invitations and a page of members from the role's members index, then
// one BatchGetItem of the member counter, the page's SP links and the
// invitations' other roles).
func TestConsoleRequestCounts(t *testing.T) {
	f := newConsoleFixture(t, 10, 400) // 40 members a role: two pages
	role := strconv.FormatInt(f.roleID, 10)
	first, err := f.pages.cfg.Service.RolePage(context.Background(), f.super, f.roleID, "")
	if err != nil {
		t.Fatal(err)
	}
	if first.Next == "" || len(first.Invitations) != 2 || first.MemberCount != 40 {
		t.Fatalf("role page: next %q, %d invitations, %d members", first.Next, len(first.Invitations), first.MemberCount)
	}
	pages := []struct {
		name, target string
		handler      http.HandlerFunc
		id           string
		max          int64
	}{
		{"people search", "/console/people?q=seed", f.pages.consolePeople, "", 3},
		{"people list", "/console/people", f.pages.consolePeople, "", 3},
		{"role page", "/console/roles/" + role, f.pages.consoleRole, role, 3},
		{"role page 2", "/console/roles/" + role + "?after=" + url.QueryEscape(first.Next), f.pages.consoleRole, role, 3}, // posted
		{"role list", "/console/roles", f.pages.consoleRoles, "", 3},
	}
	// What the role page shows, from the index: the count, a page of
	// members with their state at the SP, both invitations, the next page.
	body := f.body(t, "/console/roles/"+role, f.pages.consoleRole, role)
	for _, want := range []string{"Members (40)", `data-status="provisioned"`, "open@example.org", "Open until", "expired@example.org",
		"Expired on", `name="after" value="`} {
		if !strings.Contains(body, want) {
			t.Errorf("the role page lacks %q", want)
		}
	}
	if rows := strings.Count(body, "<tr data-member="); rows != service.RolePageSize {
		t.Errorf("the role page shows %d members, want %d", rows, service.RolePageSize)
	}
	for _, pg := range pages {
		status, n := f.get(t, methodOf(pg.target), pg.target, pg.handler, pg.id)
		t.Logf("%s: %d DynamoDB requests", pg.name, n)
		if status != http.StatusOK {
			t.Errorf("%s = %d", pg.name, status)
		}
		if n > pg.max {
			t.Errorf("%s made %d DynamoDB requests, at most %d", pg.name, n, pg.max)
		}
	}
}

// BenchmarkConsolePages renders the role list, a role's page (first and
// second page of members) and a user search, each 50 times, on a table
// of DynamoDB Local seeded by the performance seed (the S1 loader:
// CONSOLE_BENCH_USERS users, default 1,000, in CONSOLE_BENCH_ROLES roles,
// default 500; S1 is 75,000 in 500, as `make bench` runs it), and reports
// each page's p50 and p95 latency and its DynamoDB requests. The time is
// the service's, the page's and DynamoDB Local's over HTTP on this machine;
// the goal is under 100 ms p95 and at most 3 requests per page.
// Run with -benchtime 1x: every sub-benchmark measures itself.
func BenchmarkConsolePages(b *testing.B) {
	users, roles := 1000, 500
	if v, err := strconv.Atoi(os.Getenv("CONSOLE_BENCH_USERS")); err == nil && v > 0 {
		users = v
	}
	if v, err := strconv.Atoi(os.Getenv("CONSOLE_BENCH_ROLES")); err == nil && v > 0 {
		roles = v
	}
	start := time.Now()
	f := newConsoleFixture(b, roles, users)
	load := time.Since(start)
	id := strconv.FormatInt(f.roleID, 10)
	first, err := f.pages.cfg.Service.RolePage(context.Background(), f.super, f.roleID, "")
	if err != nil {
		b.Fatal(err)
	}
	second := "/console/roles/" + id
	if first.Next != "" {
		second += "?after=" + url.QueryEscape(first.Next)
	}
	b.Run("Load", func(b *testing.B) {
		for b.Loop() {
		}
		b.ReportMetric(load.Seconds(), "load-s")
		b.ReportMetric(float64(users), "users")
		b.ReportMetric(float64(roles), "roles")
	})
	for _, pg := range []struct {
		name    string
		target  func(i int) (string, string)
		handler http.HandlerFunc
	}{
		{"RoleList", func(i int) (string, string) {
			return []string{"/console/roles?q=performance&page=3", "/console/roles", "/console/roles?q=role+4"}[i%3], ""
		}, f.pages.consoleRoles},
		{"RolePage", func(i int) (string, string) {
			rid := strconv.FormatInt(f.roleID+int64(i%min(roles, 10)), 10)
			return "/console/roles/" + rid, rid
		}, f.pages.consoleRole},
		{"RolePageNext", func(int) (string, string) { return second, id }, f.pages.consoleRole},
		{"UserSearch", func(i int) (string, string) {
			return []string{"/console/people?q=seed", "/console/people?q=anna", "/console/people"}[i%3], ""
		}, f.pages.consolePeople},
	} {
		b.Run(pg.name, func(b *testing.B) {
			const runs = 50
			var took []time.Duration
			var requests int64
			for b.Loop() {
				took, requests = took[:0], 0
				for i := range runs {
					target, pathID := pg.target(i)
					began := time.Now()
					status, n := f.get(b, methodOf(target), target, pg.handler, pathID)
					took = append(took, time.Since(began))
					requests += n
					if status != http.StatusOK {
						b.Fatalf("%s %s = %d", pg.name, target, status)
					}
				}
			}
			slices.Sort(took)
			b.ReportMetric(float64(took[len(took)/2].Microseconds())/1000, "p50-ms")
			b.ReportMetric(float64(took[len(took)*95/100].Microseconds())/1000, "p95-ms")
			b.ReportMetric(float64(requests)/runs, "requests/page")
		})
	}
}
