package web

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"strconv"
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

// consoleFixture is the console on a seeded table (minidyn), with a super
// user's principal: roles with members, one role on the sample
// application with its members' SP links.
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
	pages, err := New(Config{Service: svc, Authenticator: &auth.Authenticator{}, Sessions: store, Clock: clock})
	if err != nil {
		tb.Fatal(err)
	}
	return &consoleFixture{pages: pages, counter: counter, super: super, roleID: seed.FirstRole}
}

// get serves one console page as the super user, straight to its handler
// (no session read), and answers the status and the DynamoDB requests.
func (f *consoleFixture) get(tb testing.TB, method, target string, h http.HandlerFunc, pathID string) (int, int64) {
	r := httptest.NewRequest(method, target, nil)
	if pathID != "" {
		r.SetPathValue("id", pathID)
	}
	r = r.WithContext(context.WithValue(r.Context(), visitKey{}, &visit{principal: f.super, acceptLanguage: "en"}))
	w := httptest.NewRecorder()
	before := f.counter.n.Load()
	h(w, r)
	return w.Code, f.counter.n.Load() - before
}

// TestConsoleRequestCounts records how many DynamoDB requests each list
// page costs on a seeded table, so that a change that adds requests per
// row shows here. The issue asks for at most 3 per list page: the people
// list and search (word items carry the sort name and words, then one
// BatchGetItem of the page) and the role list (the roles' member counters
// in one BatchGetItem) meet it; a role's page costs 6 (role, members and
// their users, their SP states, invitations, the member count) and does
// not yet (see the README's known limits).
func TestConsoleRequestCounts(t *testing.T) {
	f := newConsoleFixture(t, 40, 400)
	pages := []struct {
		name, target string
		handler      http.HandlerFunc
		id           string
		max          int64
	}{
		{"people search", "/console/people?q=seed", f.pages.consolePeople, "", 3},
		{"people list", "/console/people", f.pages.consolePeople, "", 3},
		{"role page", "/console/roles/" + strconv.FormatInt(f.roleID, 10), f.pages.consoleRole, strconv.FormatInt(f.roleID, 10), 6},
		{"role list", "/console/roles", f.pages.consoleRoles, "", 3},
	}
	for _, pg := range pages {
		status, n := f.get(t, "GET", pg.target, pg.handler, pg.id)
		t.Logf("%s: %d DynamoDB requests", pg.name, n)
		if status != http.StatusOK {
			t.Errorf("%s = %d", pg.name, status)
		}
		if n > pg.max {
			t.Errorf("%s made %d DynamoDB requests, at most %d", pg.name, n, pg.max)
		}
	}
}

// BenchmarkConsolePages renders the role list, a role's page and a user
// search on a seeded table (CONSOLE_BENCH_USERS users, default 1,000, in
// 500 roles; S1 is 75,000). minidyn runs in process: this is the cost of
// the service and the page plus minidyn's own (slow, interpreted) query
// work, not DynamoDB's latency. Measured here with 1,000 users: role list
// 6.5 s/op (500 roles read, 25 COUNT queries), role page 0.34 s/op, user
// search 0.96 s/op; the 100 ms goal needs the measurement on DynamoDB Local.
func BenchmarkConsolePages(b *testing.B) {
	users := 1000
	if v, err := strconv.Atoi(os.Getenv("CONSOLE_BENCH_USERS")); err == nil && v > 0 {
		users = v
	}
	f := newConsoleFixture(b, 500, users)
	id := strconv.FormatInt(f.roleID, 10)
	for _, pg := range []struct {
		name, target string
		handler      http.HandlerFunc
		id           string
	}{
		{"RoleList", "/console/roles?q=performance&page=3", f.pages.consoleRoles, ""},
		{"RolePage", "/console/roles/" + id, f.pages.consoleRole, id},
		{"UserSearch", "/console/people?q=seed", f.pages.consolePeople, ""},
	} {
		b.Run(pg.name, func(b *testing.B) {
			for b.Loop() {
				if status, _ := f.get(b, "GET", pg.target, pg.handler, pg.id); status != http.StatusOK {
					b.Fatalf("%s = %d", pg.name, status)
				}
			}
		})
	}
}
