package httpapi_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/edu-invite/invite/shared/auth"
	"github.com/edu-invite/invite/shared/config"
	"github.com/edu-invite/invite/shared/domain"
	"github.com/edu-invite/invite/shared/dynamo"
	"github.com/edu-invite/invite/shared/dynamo/dynamotest"
	"github.com/edu-invite/invite/shared/httpapi"
	"github.com/edu-invite/invite/shared/service"
	"github.com/edu-invite/invite/shared/testkit"
)

// countingHTTP counts the DynamoDB requests the SDK sends.
type countingHTTP struct{ n atomic.Int64 }

func (c *countingHTTP) Do(r *http.Request) (*http.Response, error) {
	c.n.Add(1)
	return http.DefaultClient.Do(r)
}

// searchCostFixture is the API over a table with 30 people holding one to
// three roles each (accepted invitations, so every membership write path
// of an acceptance ran). The service's store counts its DynamoDB requests;
// the authenticator has a store of its own, so that what is counted is the
// search page and not the caller's authentication.
type searchCostFixture struct {
	server  http.Handler
	counter *countingHTTP
	store   *dynamo.Store
	client  *dynamodb.Client
	table   string
	roles   []int64
}

const (
	searchCostToken    = "search-cost-token-0123456789abcdef0123456789"
	searchCostOrgToken = "search-cost-org-a-0123456789abcdef0123456789"
)

func newSearchCostFixture(t *testing.T) *searchCostFixture {
	t.Helper()
	client, table := dynamotest.NewClient(t)
	counter := &countingHTTP{}
	counting := dynamodb.New(client.Options(), func(o *dynamodb.Options) { o.HTTPClient = counter })
	clock := func() time.Time { return worldNow }
	store := dynamo.New(counting, table, clock)
	reg, err := config.Parse([]byte(testkit.Registry))
	if err != nil {
		t.Fatal(err)
	}
	svc := &service.Service{Store: store, Queue: &testkit.RecordingQueue{}, Registry: reg, Clock: clock, PublicBaseURL: testkit.PublicBaseURL}
	authStore := dynamo.New(client, table, clock)
	if err := authStore.CreateAPIToken(context.Background(), domain.APIToken{ID: 1, HashedValue: auth.HashToken(searchCostToken),
		SuperUserToken: true, Description: "super", CreatedAt: worldNow}); err != nil {
		t.Fatal(err)
	}
	if err := authStore.CreateAPIToken(context.Background(), domain.APIToken{ID: 2, HashedValue: auth.HashToken(searchCostOrgToken),
		OrganizationGUID: "org-a", Description: "org-a", CreatedAt: worldNow}); err != nil {
		t.Fatal(err)
	}
	api := &httpapi.API{Service: svc, Authenticator: &auth.Authenticator{Tokens: authStore, Users: authStore, People: people{}}}
	f := &searchCostFixture{server: api.Local(), counter: counter, store: store, client: client, table: table}
	for i, org := range []string{"org-a", "org-b", "org-c"} {
		r, err := svc.CreateRole(context.Background(), root, service.RoleInput{Name: fmt.Sprint("Cost role ", i), OrganizationGUID: org,
			DefaultExpiryDays: 365, ApplicationUsages: []service.ApplicationUsageInput{{ManageID: "wiki"}}})
		if err != nil {
			t.Fatal(err)
		}
		f.roles = append(f.roles, r.ID)
	}
	authorities := []domain.Authority{domain.Guest, domain.Inviter, domain.Manager}
	for i := range 30 {
		p := person("Searchy", fmt.Sprintf("Person%02d", i), fmt.Sprintf("searchy%02d@example.org", i))
		for j := 0; j <= i%3; j++ {
			testkit.InviteAndAccept(t, svc, root, p, f.roles[j], authorities[(i+j)%3], worldNow.Add(14*24*time.Hour))
		}
	}
	return f
}

// get answers a GET as the super token (as org-a's token for a path
// marked "org:"), with the DynamoDB requests it cost.
func (f *searchCostFixture) get(t *testing.T, path string) (string, int64) {
	t.Helper()
	token := searchCostToken
	if rest, ok := strings.CutPrefix(path, "org:"); ok {
		path, token = rest, searchCostOrgToken
	}
	before := f.counter.n.Load()
	req := httptest.NewRequest(http.MethodGet, path, nil)
	req.Header.Set(auth.APITokenHeader, token)
	rec := httptest.NewRecorder()
	f.server.ServeHTTP(rec, req)
	if rec.Code != http.StatusOK {
		t.Fatalf("GET %s: %d %s", path, rec.Code, rec.Body)
	}
	return rec.Body.String(), f.counter.n.Load() - before
}

// forgetSummaries makes every user item look written by an older version
// (no trusted role summary), so that the search reads memberships by Query.
func (f *searchCostFixture) forgetSummaries(t *testing.T, users int) {
	t.Helper()
	for uid := int64(1); uid <= int64(users); uid++ {
		_, err := f.client.UpdateItem(context.Background(), &dynamodb.UpdateItemInput{TableName: aws.String(f.table),
			Key: map[string]types.AttributeValue{"pk": &types.AttributeValueMemberS{Value: fmt.Sprint("USER#", uid)},
				"sk": &types.AttributeValueMemberS{Value: "USER"}},
			UpdateExpression:    aws.String("REMOVE rsComplete"),
			ConditionExpression: aws.String("attribute_exists(pk)")})
		var failed *types.ConditionalCheckFailedException
		if err != nil && !errors.As(err, &failed) {
			t.Fatal(err)
		}
	}
}

// TestAPIUserSearchPageCosts: a page of GET /api/v1/users/search, by a
// word or the whole listing, 10 or 100 users, costs at most 3 DynamoDB
// requests, one more per further key word of the query (the key words are
// read at once; the reads the answer does not need are cancelled, and may
// or may not have been sent), and answers the same body as the search that
// reads every user's memberships (data of an older version).
func TestAPIUserSearchPageCosts(t *testing.T) {
	f := newSearchCostFixture(t)
	pages := []struct {
		path string
		most int64
	}{
		{"/api/v1/users/search?query=searchy&pageSize=10", 3},
		{"/api/v1/users/search?query=searchy&pageSize=10&pageNumber=2", 3},
		{"/api/v1/users/search?query=searchy%20person1&pageSize=10", 4},
		{"/api/v1/users/search?query=searchy&pageSize=100", 3},
		{"/api/v1/users/search?pageSize=10", 3},
		{"/api/v1/users/search?pageSize=10&pageNumber=2", 3},
		{"/api/v1/users/search?pageSize=100&sort=authority&sortDirection=DESC", 3},
		{"/api/external/v1/users/search?query=s&pageSize=100", 3},
		// An organization's token: the organization's listing by name.
		{"org:/api/v1/users/search?pageSize=10", 3},
		{"org:/api/v1/users/search?pageSize=10&pageNumber=1&sortDirection=DESC", 3},
	}
	bodies := map[string]string{}
	for _, p := range pages {
		body, requests := f.get(t, p.path)
		if requests > p.most || requests == 0 {
			t.Errorf("GET %s: %d DynamoDB requests, want 1 to %d", p.path, requests, p.most)
		}
		bodies[p.path] = body
		t.Logf("GET %s: %d requests", p.path, requests)
	}
	if body := bodies[pages[3].path]; !containsAll(body, `"roleName":"Cost role 0"`, `"roleName":"Cost role 2"`, `"authority":"MANAGER"`, `"endDate"`) {
		t.Errorf("search body lacks role summaries: %s", body)
	}
	if body := bodies["org:/api/v1/users/search?pageSize=10"]; !containsAll(body, `"totalElements":30`, `"roleName":"Cost role 0"`) {
		t.Errorf("org-a's listing: %s", body)
	}

	// The same pages over user items without a trusted summary: the old
	// path (a Query per user), dearer, same answer.
	f.forgetSummaries(t, 40)
	for _, p := range pages {
		body, requests := f.get(t, p.path)
		t.Logf("GET %s without summaries: %d requests", p.path, requests)
		if body != bodies[p.path] {
			t.Errorf("GET %s differs without summaries:\n%s\n%s", p.path, bodies[p.path], body)
		}
		if requests <= p.most {
			t.Errorf("GET %s without summaries: %d requests; the fallback was not taken", p.path, requests)
		}
	}

	// POST /api/v1/system/index-repair, a job that goes page after page
	// until done, gives the summaries back: the pages cost what they did,
	// same bodies.
	job := awaitJob(t, f.post(t, "/api/v1/system/index-repair"), func(path string) *httptest.ResponseRecorder {
		req := httptest.NewRequest(http.MethodGet, path, nil)
		req.Header.Set(auth.APITokenHeader, searchCostToken)
		rec := httptest.NewRecorder()
		f.server.ServeHTTP(rec, req)
		return rec
	})
	if res, _ := job["result"].(map[string]any); job["status"] != domain.JobSucceeded || res["done"] != true {
		t.Fatalf("index repair job %v", job)
	}
	for _, p := range pages {
		body, requests := f.get(t, p.path)
		if body != bodies[p.path] || requests > p.most {
			t.Errorf("GET %s after the repair: %d requests, body differs: %v", p.path, requests, body != bodies[p.path])
		}
	}
}

// post sends a POST without body as the super token.
func (f *searchCostFixture) post(t *testing.T, path string) *httptest.ResponseRecorder {
	t.Helper()
	req := httptest.NewRequest(http.MethodPost, path, nil)
	req.Header.Set(auth.APITokenHeader, searchCostToken)
	rec := httptest.NewRecorder()
	f.server.ServeHTTP(rec, req)
	return rec
}

// TestAPIUserSearchShowsARenamedRole: role names are read at search time
// (the summary holds role ids), so a rename shows at once, without
// rewriting any user.
func TestAPIUserSearchShowsARenamedRole(t *testing.T) {
	f := newSearchCostFixture(t)
	r, err := f.store.GetRole(context.Background(), f.roles[1])
	if err != nil {
		t.Fatal(err)
	}
	r.Name = "Renamed cost role"
	if err := f.store.UpdateRole(context.Background(), r, nil); err != nil {
		t.Fatal(err)
	}
	body, requests := f.get(t, "/api/v1/users/search?query=searchy&pageSize=100")
	if !containsAll(body, `"roleName":"Renamed cost role"`) || containsAll(body, `"roleName":"Cost role 1"`) || requests > 3 {
		t.Errorf("after the rename (%d requests): %s", requests, body)
	}
}

func containsAll(s string, parts ...string) bool {
	for _, p := range parts {
		if !strings.Contains(s, p) {
			return false
		}
	}
	return true
}

// TestAPIUserSearchPastTheBound: with the store's bound lowered to 5, a
// query whose every word names more people is answered 400 with the
// spec's error body saying to narrow it, while a selective word and a
// whole e-mail address still answer exact totals.
func TestAPIUserSearchPastTheBound(t *testing.T) {
	f := newSearchCostFixture(t)
	f.store.SetSearchBound(5)
	for _, c := range []struct {
		path   string
		status int
		want   string
	}{
		{"/api/v1/users/search?query=searchy", http.StatusBadRequest, "matches more than 5 people"},
		{"/api/v1/users/search?query=searchy%20person07", http.StatusOK, `"totalElements":1`},
		{"/api/v1/users/search?query=searchy07%40example.org", http.StatusOK, `"totalElements":1`},
		{"org:/api/v1/users/search?query=example", http.StatusBadRequest, "matches more than 5 people"},
	} {
		token := searchCostToken
		path := c.path
		if rest, ok := strings.CutPrefix(path, "org:"); ok {
			path, token = rest, searchCostOrgToken
		}
		req := httptest.NewRequest(http.MethodGet, path, nil)
		req.Header.Set(auth.APITokenHeader, token)
		rec := httptest.NewRecorder()
		f.server.ServeHTTP(rec, req)
		if rec.Code != c.status || !strings.Contains(rec.Body.String(), c.want) {
			t.Errorf("GET %s: %d %s, want %d with %q", c.path, rec.Code, rec.Body, c.status, c.want)
		}
	}
}
