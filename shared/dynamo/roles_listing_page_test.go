package dynamo_test

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/smithy-go/middleware"

	"github.com/edu-invite/invite/shared/domain"
	"github.com/edu-invite/invite/shared/dynamo"
	"github.com/edu-invite/invite/shared/dynamo/dynamotest"
)

// readCounter counts a store's DynamoDB requests and the items its reads
// returned (Query and BatchGetItem), the cost of a page.
type readCounter struct{ requests, items atomic.Int64 }

func (c *readCounter) snapshot() (int64, int64) { return c.requests.Load(), c.items.Load() }

// itemCountingStore is a store whose requests and items read are counted,
// with an uncounted client of its table.
func itemCountingStore(tb testing.TB) (*dynamo.Store, *readCounter, rawTable) {
	tb.Helper()
	client, table := dynamotest.NewClient(tb)
	c := &readCounter{}
	counted := dynamodb.New(client.Options(), func(o *dynamodb.Options) {
		o.APIOptions = append(o.APIOptions, func(stack *middleware.Stack) error {
			return stack.Initialize.Add(middleware.InitializeMiddlewareFunc("countReads",
				func(ctx context.Context, in middleware.InitializeInput, next middleware.InitializeHandler) (middleware.InitializeOutput, middleware.Metadata, error) {
					c.requests.Add(1)
					out, md, err := next.HandleInitialize(ctx, in)
					switch res := out.Result.(type) {
					case *dynamodb.QueryOutput:
						c.items.Add(int64(res.ScannedCount))
					case *dynamodb.BatchGetItemOutput:
						for _, items := range res.Responses {
							c.items.Add(int64(len(items)))
						}
					}
					return out, md, err
				}), middleware.Before)
		})
	})
	return dynamo.New(counted, table, func() time.Time { return testNow }), c, rawTable{Client: client, table: table}
}

var roleVocabulary = []string{"physics", "physical", "chemistry", "lab", "library", "guests", "staff", "research", "data", "archive"}

// listingRoles are n roles over org-1, org-2 and no organization, named
// from a small vocabulary (words shared by many roles, prefixes of each
// other), with descriptions that tie and creation times that tie.
func listingRoles(first int64, n int) []domain.Role {
	var roles []domain.Role
	for i := range int64(n) {
		id := first + i
		org := []string{"org-1", "org-2", ""}[id%3]
		name := fmt.Sprintf("%s %s %d", roleVocabulary[id%7], roleVocabulary[(id/7)%10], id)
		if id%11 == 0 {
			name = strings.ToUpper(name) // case does not order
		}
		roles = append(roles, domain.Role{ID: id, Name: name, ShortName: domain.ShortNameOf(name),
			Description: fmt.Sprintf("%s for %s", roleVocabulary[(id*3)%10], roleVocabulary[id%4]), OrganizationGUID: org,
			Auditable: domain.Auditable{CreatedAt: testNow.Add(time.Duration(id%5) * time.Hour)}})
	}
	return roles
}

// bruteForceRoles is the page the listing must answer, from the roles in
// memory: every role of the scope whose words start with every query word,
// ordered by domain.RoleSortKey (or member count), then cut.
func bruteForceRoles(roles []domain.Role, members map[int64]int64, org string, page domain.PageRequest) ([]int64, int) {
	query := strings.FieldsFunc(strings.ToLower(page.Query), func(r rune) bool {
		return !('a' <= r && r <= 'z' || '0' <= r && r <= '9')
	})
	var match []domain.Role
	for _, r := range roles {
		if org != "" && r.OrganizationGUID != org {
			continue
		}
		words := strings.Fields(strings.ToLower(r.Name + " " + strings.ReplaceAll(r.Description, ",", " ")))
		if !allPrefixes(words, query) {
			continue
		}
		match = append(match, r)
	}
	slices.SortFunc(match, func(a, b domain.Role) int {
		c := strings.Compare(domain.RoleSortKey(a, page.Sort), domain.RoleSortKey(b, page.Sort))
		if page.Sort == domain.RoleSortUserRoleCount {
			c = cmp.Or(cmp.Compare(members[a.ID], members[b.ID]), cmp.Compare(a.ID, b.ID))
		}
		if page.Descending {
			return -c
		}
		return c
	})
	var ids []int64
	for i := page.Offset(); i < min(page.Offset()+page.Size, len(match)); i++ {
		ids = append(ids, match[i].ID)
	}
	return ids, len(match)
}

func allPrefixes(words, query []string) bool {
	for _, q := range query {
		if !slices.ContainsFunc(words, func(w string) bool { return strings.HasPrefix(w, q) }) {
			return false
		}
	}
	return true
}

func idsOf(roles []domain.Role) []int64 {
	ids := make([]int64, len(roles))
	for i, r := range roles {
		ids[i] = r.ID
	}
	return ids
}

// roleListingCases are the pages compared with the brute-force answer.
var roleListingCases = []struct {
	org  string
	page domain.PageRequest
}{
	{"", domain.PageRequest{Size: 10}},
	{"", domain.PageRequest{Size: 7, Number: 3, Sort: "description", Descending: true}},
	{"", domain.PageRequest{Size: 10, Number: 1, Sort: "createdAt"}},
	{"", domain.PageRequest{Size: 10, Number: 2, Sort: "id", Descending: true}},
	{"", domain.PageRequest{Size: 10, Query: "phys 1"}},
	{"", domain.PageRequest{Size: 5, Query: "chemistry lab", Sort: "createdAt", Descending: true}},
	{"org-1", domain.PageRequest{Size: 10}},
	{"org-1", domain.PageRequest{Size: 4, Number: 2, Sort: "name", Descending: true}},
	{"org-1", domain.PageRequest{Size: 10, Query: "li"}},
	{"org-1", domain.PageRequest{Size: 10, Query: "research", Sort: "userRoleCount", Descending: true}},
	{"org-2", domain.PageRequest{Size: 10, Sort: "userRoleCount"}},
	{"org-2", domain.PageRequest{Size: 3, Number: 1, Query: "d", Sort: "description"}},
	{"org-2", domain.PageRequest{Size: 10, Number: 50}},
	{"org-9", domain.PageRequest{Size: 10}},
	{"", domain.PageRequest{Size: 10, Query: "nosuchword"}},
}

// checkRoleListings compares every case with the brute-force answer; a
// case the store finds too broad must be one whose candidates exceed the
// bound, and is reported so that callers can expect some.
func checkRoleListings(t *testing.T, s *dynamo.Store, roles []domain.Role, members map[int64]int64, bound int) (tooBroad int) {
	t.Helper()
	for _, tc := range roleListingCases {
		name := fmt.Sprintf("%s %+v", tc.org, tc.page)
		page, err := s.ListRolesPage(ctx(t), domain.RoleListQuery{OrganizationGUID: tc.org, Page: tc.page})
		wantIDs, wantTotal := bruteForceRoles(roles, members, tc.org, tc.page)
		if _, broad := domain.IsSearchTooBroad(err); broad {
			if _, scope := bruteForceRoles(roles, members, tc.org, domain.PageRequest{Size: 0}); scope <= bound {
				t.Errorf("%s: too broad, though the scope has only %d roles (bound %d)", name, scope, bound)
			}
			tooBroad++
			continue
		}
		must(t, err)
		if got := idsOf(page.Items); !slices.Equal(got, wantIDs) || page.Total != int64(wantTotal) {
			t.Errorf("%s: %v of %d, want %v of %d", name, got, page.Total, wantIDs, wantTotal)
		}
	}
	return tooBroad
}

// TestRoleListingPagesAreTrue: every page of the role listings (each sort,
// both directions, word queries, an organization or all roles) is the page
// a brute-force listing of the roles gives, with the true total, after the
// seed and after roles are created, renamed, moved to another organization
// and deleted.
func TestRoleListingPagesAreTrue(t *testing.T) {
	s, _, _ := itemCountingStore(t)
	roles := listingRoles(1, 90)
	seed := domain.Seed{Roles: roles}
	members := map[int64]int64{}
	for i := range int64(60) {
		uid := 100 + i
		seed.Users = append(seed.Users, domain.User{ID: uid, Sub: fmt.Sprint("sub-", uid), Name: fmt.Sprint("U ", uid), Email: fmt.Sprint("u", uid, "@example.org")})
		for _, roleID := range []int64{1 + i%30, 2 + i%5} {
			if roleID == 1+i%30 && roleID == 2+i%5 {
				continue
			}
			seed.UserRoles = append(seed.UserRoles, domain.UserRole{ID: uid*10 + roleID, UserID: uid, RoleID: roleID, Authority: domain.Guest, CreatedAt: testNow})
			members[roleID]++
		}
	}
	must(t, s.Seed(ctx(t), seed))
	if broad := checkRoleListings(t, s, roles, members, dynamo.DefaultRoleListingBound); broad != 0 {
		t.Errorf("%d pages too broad at the default bound", broad)
	}

	// Writes through the store keep the listings true.
	created := listingRoles(200, 3)
	for _, r := range created {
		must(t, s.CreateRole(ctx(t), r, nil))
	}
	roles = append(roles, created...)
	changes := map[int64]func(*domain.Role){
		4:   func(r *domain.Role) { r.Name = "Zeta archive renamed" },
		5:   func(r *domain.Role) { r.OrganizationGUID = "org-1"; r.Description = "moved research" },
		6:   func(r *domain.Role) { r.OrganizationGUID = "" },
		201: func(r *domain.Role) { r.Description = "" },
	}
	for i := range roles {
		if change, ok := changes[roles[i].ID]; ok {
			stored, err := s.GetRole(ctx(t), roles[i].ID)
			must(t, err)
			change(&stored)
			must(t, s.UpdateRole(ctx(t), stored, nil))
			roles[i] = stored
		}
	}
	for _, gone := range []int64{7, 202} {
		stored, err := s.GetRole(ctx(t), gone)
		must(t, err)
		must(t, s.DeleteRole(ctx(t), stored, nil))
		roles = slices.DeleteFunc(roles, func(r domain.Role) bool { return r.ID == gone })
	}
	if broad := checkRoleListings(t, s, roles, members, dynamo.DefaultRoleListingBound); broad != 0 {
		t.Errorf("%d pages too broad at the default bound after the writes", broad)
	}

	// At a bound of 20 the answers are still true or refused, never partial.
	s.SetRoleListingBound(20)
	if broad := checkRoleListings(t, s, roles, members, 20); broad == 0 {
		t.Error("no page too broad at a bound of 20")
	}
}

// TestRoleListingCostDoesNotGrowWithRoles: a page of an organization's
// roles or of all roles, in any indexed order or for a word, reads the
// same requests and items when the table holds five times as many roles
// that are not on it; what a page reads is bounded by its offset and size
// (or, for a word, by the roles the word names), never by the roles.
func TestRoleListingCostDoesNotGrowWithRoles(t *testing.T) {
	s, counter, _ := itemCountingStore(t)
	s.SetRoleListingBound(50)
	roles := listingRoles(1, 60)
	must(t, s.Seed(ctx(t), domain.Seed{Roles: roles}))
	queries := map[string]domain.RoleListQuery{
		"org, by name, page 2":        {OrganizationGUID: "org-1", Page: domain.PageRequest{Size: 5, Number: 2}},
		"org, by description, desc":   {OrganizationGUID: "org-1", Page: domain.PageRequest{Size: 5, Sort: "description", Descending: true}},
		"all, by creation":            {Page: domain.PageRequest{Size: 10, Sort: "createdAt"}},
		"all, by id, page 3":          {Page: domain.PageRequest{Size: 10, Number: 3, Sort: "id"}},
		"org, a word":                 {OrganizationGUID: "org-1", Page: domain.PageRequest{Size: 5, Query: "chemistry"}},
		"all, two words":              {Page: domain.PageRequest{Size: 5, Query: "lab phys"}},
		"org, a word by member count": {OrganizationGUID: "org-2", Page: domain.PageRequest{Size: 5, Query: "library", Sort: "userRoleCount"}},
	}
	type cost struct{ requests, items int64 }
	measure := func(q domain.RoleListQuery) (cost, domain.Page[domain.Role]) {
		r0, i0 := counter.snapshot()
		page, err := s.ListRolesPage(ctx(t), q)
		must(t, err)
		r1, i1 := counter.snapshot()
		return cost{r1 - r0, i1 - i0}, page
	}
	small := map[string]cost{}
	for name, q := range queries {
		small[name], _ = measure(q)
	}
	// 240 more roles in org-1, org-2 and no organization, none of them with
	// a word of the queries.
	var more []domain.Role
	for i := range int64(240) {
		id := 1000 + i
		name := fmt.Sprintf("zz other %d", id)
		more = append(more, domain.Role{ID: id, Name: name, ShortName: domain.ShortNameOf(name), Description: "zz unrelated",
			OrganizationGUID: []string{"org-1", "org-2", ""}[id%3], Auditable: domain.Auditable{CreatedAt: testNow.Add(time.Hour * 24)}})
	}
	must(t, s.Seed(ctx(t), domain.Seed{Roles: more}))
	for name, q := range queries {
		c, page := measure(q)
		if c != small[name] {
			t.Errorf("%s: %+v with 60 roles, %+v with 300", name, small[name], c)
		}
		if c.requests > 4 || (q.Page.Query == "" && c.requests > 2) {
			t.Errorf("%s: %d requests for a page", name, c.requests)
		}
		// The window (offset + size listing items), then the page's roles
		// with 4 counter shards each and the scope's count.
		if q.Page.Query == "" && c.items > int64(q.Page.Offset()+6*q.Page.Size+1) {
			t.Errorf("%s: %d items read for a page of %d at offset %d", name, c.items, q.Page.Size, q.Page.Offset())
		}
		if len(page.Items) == 0 {
			t.Errorf("%s: empty page", name)
		}
		t.Logf("%s: %d requests, %d items", name, c.requests, c.items)
	}
	// A sort by member count of a scope larger than the bound is refused,
	// not answered from part of it.
	_, err := s.ListRolesPage(ctx(t), domain.RoleListQuery{OrganizationGUID: "org-1", Page: domain.PageRequest{Size: 5, Sort: "userRoleCount"}})
	if _, broad := domain.IsSearchTooBroad(err); !broad {
		t.Errorf("member-count sort of 100 roles at a bound of 50: %v", err)
	}
}

// TestRoleListingRepair: roles of an older version (no listing items, no
// counts, no ready item) are not listed until the index repair has run:
// a page costs what a page costs (no read of every role), then every page
// is true again and the repair has written the ready item.
func TestRoleListingRepair(t *testing.T) {
	s, counter, client := itemCountingStore(t)
	roles := listingRoles(1, 30)
	must(t, s.Seed(ctx(t), domain.Seed{Roles: roles}))
	// Age the table: drop every item the listings are made of.
	in := &dynamodb.ScanInput{TableName: &client.table}
	dropped := 0
	for {
		page, err := client.Scan(ctx(t), in)
		must(t, err)
		for _, it := range page.Items {
			switch stringAttr(it, "entity") {
			case "RoleListing", "RoleWord", "RoleCount", "RoleListingReady":
				deleteItem(t, client, stringAttr(it, "pk"), stringAttr(it, "sk"))
				dropped++
			}
		}
		if len(page.LastEvaluatedKey) == 0 {
			break
		}
		in.ExclusiveStartKey = page.LastEvaluatedKey
	}
	if dropped < 30*3 {
		t.Fatalf("only %d listing items to drop", dropped)
	}
	for _, q := range []domain.RoleListQuery{{Page: domain.PageRequest{Size: 10}}, {OrganizationGUID: "org-1", Page: domain.PageRequest{Size: 10, Sort: "id"}}} {
		r0, i0 := counter.snapshot()
		page, err := s.ListRolesPage(ctx(t), q)
		must(t, err)
		r1, i1 := counter.snapshot()
		if len(page.Items) != 0 || page.Total != 0 || r1-r0 > 2 || i1-i0 > 0 {
			t.Errorf("aged table %+v: %d roles of %d in %d requests, %d items read; want none in at most 2 requests (no read of every role)",
				q, len(page.Items), page.Total, r1-r0, i1-i0)
		}
	}
	repairAll(t, s, 7)
	if broad := checkRoleListings(t, s, roles, nil, dynamo.DefaultRoleListingBound); broad != 0 {
		t.Errorf("%d pages too broad", broad)
	}
	out, err := client.GetItem(ctx(t), &dynamodb.GetItemInput{TableName: &client.table, Key: map[string]types.AttributeValue{
		"pk": &types.AttributeValueMemberS{Value: "ROLELISTING"}, "sk": &types.AttributeValueMemberS{Value: "READY"}}})
	must(t, err)
	if len(out.Item) == 0 {
		t.Error("the repair wrote no ROLELISTING/READY item")
	}
}

func stringAttr(it map[string]types.AttributeValue, name string) string {
	if v, ok := it[name].(*types.AttributeValueMemberS); ok {
		return v.Value
	}
	return ""
}
