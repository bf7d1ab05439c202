package dynamo_test

import (
	"context"
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/smithy-go/middleware"

	"github.com/edu-invite/invite/shared/domain"
	"github.com/edu-invite/invite/shared/dynamo"
	"github.com/edu-invite/invite/shared/dynamo/dynamotest"
)

// countingStore is a store whose DynamoDB requests are counted.
func countingStore(tb testing.TB) (*dynamo.Store, *atomic.Int64) {
	tb.Helper()
	s, n, _ := countingStoreWithTable(tb)
	return s, n
}

// countingStoreWithTable is countingStore with an uncounted client of its
// table, to change items behind the store's back.
func countingStoreWithTable(tb testing.TB) (*dynamo.Store, *atomic.Int64, rawTable) {
	tb.Helper()
	client, table := dynamotest.NewClient(tb)
	var n atomic.Int64
	counted := dynamodb.New(client.Options(), func(o *dynamodb.Options) {
		o.APIOptions = append(o.APIOptions, func(stack *middleware.Stack) error {
			return stack.Initialize.Add(middleware.InitializeMiddlewareFunc("countRequests",
				func(ctx context.Context, in middleware.InitializeInput, next middleware.InitializeHandler) (middleware.InitializeOutput, middleware.Metadata, error) {
					n.Add(1)
					return next.HandleInitialize(ctx, in)
				}), middleware.Before)
		})
	})
	return dynamo.New(counted, table, func() time.Time { return testNow }), &n, rawTable{Client: client, table: table}
}

// seedUsers seeds n users (ids from first) in role 1 of org-1, named
// "<Given> Family<i>"; a tenth of them is called Zelda.
func seedUsers(tb testing.TB, s *dynamo.Store, first int64, n int) {
	tb.Helper()
	seed := domain.Seed{}
	if first == 1 {
		seed.Roles = []domain.Role{role(1, "One")}
	}
	for i := range int64(n) {
		uid := first + i
		given := "Anna"
		if uid%10 == 0 {
			given = "Zelda"
		}
		seed.Users = append(seed.Users, domain.User{ID: uid, Sub: fmt.Sprint("sub-", uid), GivenName: given,
			FamilyName: fmt.Sprint("Family", uid), Name: fmt.Sprint(given, " Family", uid), Email: fmt.Sprint("u", uid, "@example.org")})
		seed.UserRoles = append(seed.UserRoles, domain.UserRole{ID: uid, UserID: uid, RoleID: 1, Authority: domain.Guest, CreatedAt: testNow})
	}
	if err := s.Seed(context.Background(), seed); err != nil {
		tb.Fatal(err)
	}
}

// TestSearchCostDoesNotGrowWithUsers: the requests of a page of the
// listing and of a word search stay the same when the table holds four
// times as many users that do not match.
func TestSearchCostDoesNotGrowWithUsers(t *testing.T) {
	s, requests := countingStore(t)
	seedUsers(t, s, 1, 200)
	cost := func(q domain.UserSearch) (int64, domain.Page[domain.User]) {
		before := requests.Load()
		page, err := s.SearchUsers(ctx(t), q)
		must(t, err)
		return requests.Load() - before, page
	}
	queries := map[string]domain.UserSearch{
		"listing":        {Page: domain.PageRequest{Size: 10, Number: 1}},
		"word":           {Page: domain.PageRequest{Size: 10, Query: "zel"}},
		"two words":      {Page: domain.PageRequest{Size: 10, Query: "zelda family10"}},
		"listing, desc":  {Page: domain.PageRequest{Size: 10, Descending: true}},
		"org, with word": {OrganizationGUID: "org-1", Page: domain.PageRequest{Size: 10, Query: "family19"}},
	}
	small := map[string]int64{}
	for name, q := range queries {
		small[name], _ = cost(q)
	}
	// 600 more users, none named Zelda and none in org-1.
	more := domain.Seed{}
	for i := range int64(600) {
		uid := 1000 + i
		more.Users = append(more.Users, domain.User{ID: uid, Sub: fmt.Sprint("sub-", uid), GivenName: "Bert",
			FamilyName: "Other", Name: "Bert Other", Email: fmt.Sprint("b", uid, "@example.org")})
	}
	must(t, s.Seed(ctx(t), more))
	for name, q := range queries {
		n, page := cost(q)
		if n != small[name] {
			t.Errorf("%s: %d requests with 200 users, %d with 800", name, small[name], n)
		}
		if n > 6 {
			t.Errorf("%s: %d requests for a page", name, n)
		}
		t.Logf("%s: %d requests", name, n)
		if len(page.Items) == 0 {
			t.Errorf("%s: empty page", name)
		}
	}
}

// TestOrganizationSearchCostDoesNotGrowWithMembers: a page of one
// organization's users (an institution admin's or organization token's
// search) costs the same number of requests when the organization has 200
// users and when it has 800: the organization items are read, not every
// membership of the organization.
func TestOrganizationSearchCostDoesNotGrowWithMembers(t *testing.T) {
	s, requests := countingStore(t)
	seedUsers(t, s, 1, 200)
	cost := func(q domain.UserSearch) (int64, domain.Page[domain.User]) {
		before := requests.Load()
		page, err := s.SearchUsers(ctx(t), q)
		must(t, err)
		return requests.Load() - before, page
	}
	org := func(query string, number int, descending bool) domain.UserSearch {
		return domain.UserSearch{OrganizationGUID: "org-1", Page: domain.PageRequest{Size: 10, Number: number, Query: query, Descending: descending}}
	}
	queries := map[string]domain.UserSearch{
		"org listing":         org("", 0, false),
		"org listing, page 3": org("", 3, false),
		"org listing, desc":   org("", 0, true),
		"org word":            org("zel", 0, false),
		"org two words":       org("zelda family10", 0, false),
		"org one letter":      org("z", 0, false),
	}
	small := map[string]int64{}
	for name, q := range queries {
		var page domain.Page[domain.User]
		small[name], page = cost(q)
		if name == "org listing" && page.Total != 200 {
			t.Errorf("org-1 total %d with 200 members", page.Total)
		}
	}
	// 600 more members of org-1, none named Zelda, in six more roles of
	// org-1 (reading every role's memberships would cost more requests per
	// role), and 300 users of another organization.
	more := domain.Seed{Roles: []domain.Role{{ID: 2, Name: "Elsewhere", ShortName: "elsewhere", OrganizationGUID: "org-2", Auditable: domain.Auditable{CreatedAt: testNow}}}}
	for r := int64(3); r <= 8; r++ {
		more.Roles = append(more.Roles, role(r, fmt.Sprint("More ", r)))
	}
	for i := range int64(900) {
		uid := 1000 + i
		roleID := 3 + i/100
		if i >= 600 {
			roleID = 2
		}
		more.Users = append(more.Users, domain.User{ID: uid, Sub: fmt.Sprint("sub-", uid), GivenName: "Bert",
			FamilyName: fmt.Sprint("Other", uid), Name: fmt.Sprint("Bert Other", uid), Email: fmt.Sprint("b", uid, "@example.org")})
		more.UserRoles = append(more.UserRoles, domain.UserRole{ID: uid, UserID: uid, RoleID: roleID, Authority: domain.Guest, CreatedAt: testNow})
	}
	must(t, s.Seed(ctx(t), more))
	for name, q := range queries {
		n, page := cost(q)
		if n != small[name] {
			t.Errorf("%s: %d requests with 200 members, %d with 800", name, small[name], n)
		}
		if n > 6 {
			t.Errorf("%s: %d requests for a page", name, n)
		}
		t.Logf("%s: %d requests", name, n)
		if len(page.Items) == 0 {
			t.Errorf("%s: empty page", name)
		}
		if name == "org listing" && page.Total != 800 {
			t.Errorf("org-1 total %d with 800 members", page.Total)
		}
		if name == "org word" && page.Total != 20 {
			t.Errorf("zel in org-1: total %d, want the 20 Zeldas", page.Total)
		}
	}
}

// BenchmarkSearchUsersPage measures a word search page over 2,000 seeded
// users (200 match) and reports the DynamoDB requests per page.
func BenchmarkSearchUsersPage(b *testing.B) {
	s, requests := countingStore(b)
	seedUsers(b, s, 1, 2000)
	q := domain.UserSearch{Page: domain.PageRequest{Size: 10, Query: "zelda"}}
	start := requests.Load()
	pages := 0
	for b.Loop() {
		page, err := s.SearchUsers(b.Context(), q)
		if err != nil || page.Total != 200 {
			b.Fatalf("total %d, %v", page.Total, err)
		}
		pages++
	}
	b.ReportMetric(float64(requests.Load()-start)/float64(pages), "requests/page")
}
