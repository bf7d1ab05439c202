package service_test

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"
	"unicode"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/smithy-go/middleware"

	"github.com/edu-invite/invite/shared/auth"
	"github.com/edu-invite/invite/shared/domain"
	"github.com/edu-invite/invite/shared/dynamo"
	"github.com/edu-invite/invite/shared/service"
)

// BenchmarkTruth seeds TRUTH_USERS users (default 20,000) in TRUTH_ROLES
// roles (default 200) of one organization per 100 roles, the first role
// with TRUTH_BIG_ROLE members (default 6,000), and asks each kind of
// query a page the API and console ask. For each kind it reports the
// DynamoDB items read and requests per page, the p95 latency, and whether
// the page and the total were the true ones, against an answer computed
// by brute force from the seed itself (every user, every role, in memory).
// A search that answers "narrow the query" is right when the brute force
// finds that every word of the query names more people than the store's
// bound. `make bench` runs it at the default scale, `make bench-national`
// at 1,000,000 users and 10,000 roles (one with 50,000 members).
func BenchmarkTruth(b *testing.B) {
	f := loadTruth(b)
	for _, k := range f.kinds() {
		b.Run(k.name, func(b *testing.B) {
			var took []time.Duration
			var first time.Duration
			var items, requests int64
			var pageOK, totalOK bool
			for b.Loop() {
				// The first ask meets DynamoDB Local's files cold (a national
				// table is larger than the page cache keeps); it is reported
				// apart, and the asks measured after it are warm, as a
				// service's are.
				start := time.Now()
				k.ask()
				first = time.Since(start)
				took = took[:0]
				items0, requests0 := f.items.Load(), f.requests.Load()
				for range truthRuns {
					start := time.Now()
					got := k.ask()
					took = append(took, time.Since(start))
					pageOK, totalOK = k.want.samePage(got), k.want.sameTotal(got)
				}
				items, requests = f.items.Load()-items0, f.requests.Load()-requests0
			}
			slices.Sort(took)
			b.ReportMetric(float64(items)/truthRuns, "items/page")
			b.ReportMetric(float64(requests)/truthRuns, "requests/page")
			b.ReportMetric(float64(percentile(took, 95).Microseconds())/1000, "p95-ms")
			b.ReportMetric(float64(first.Microseconds())/1000, "first-ms")
			b.ReportMetric(boolMetric(pageOK), "page-correct")
			b.ReportMetric(boolMetric(totalOK), "total-correct")
			if !pageOK || !totalOK {
				b.Logf("%s: got %s, want %s", k.name, k.ask(), k.want)
			}
		})
	}
}

// truthRuns is how many asks of each kind are timed: enough that the p95
// is not simply the slowest ask.
const truthRuns = 100

// percentile is the nearest-rank p-th percentile of sorted durations: the
// smallest that at least p% of them do not exceed.
func percentile(sorted []time.Duration, p int) time.Duration {
	rank := (len(sorted)*p + 99) / 100
	return sorted[max(rank, 1)-1]
}

func boolMetric(ok bool) float64 {
	if ok {
		return 1
	}
	return 0
}

// answer is a page as ids in order, its total, or "narrow the query".
type answer struct {
	ids    []int64
	total  int64
	narrow bool
	err    string
}

func (a answer) String() string {
	switch {
	case a.err != "":
		return "error " + a.err
	case a.narrow:
		return "narrow the query"
	}
	return fmt.Sprintf("%v of %d", a.ids, a.total)
}

func (a answer) samePage(got answer) bool {
	return got.err == "" && got.narrow == a.narrow && slices.Equal(got.ids, a.ids)
}

func (a answer) sameTotal(got answer) bool {
	return got.err == "" && got.narrow == a.narrow && got.total == a.total
}

type truthKind struct {
	name string
	ask  func() answer
	want answer
}

// truthUser is what the brute force knows of a seeded user.
type truthUser struct {
	id                  int64
	name, email, org    string
	words, listingOrder string
	wordList            []string
}

type truthFixture struct {
	svc             *service.Service
	store           *dynamo.Store
	items, requests *atomic.Int64
	users           []truthUser
	roles           []domain.Role
	bigRole         int64
	bigMembers      []int64
	bound           int
}

var truthFirst = []string{"Anna", "Bram", "Daan", "Emma", "Julia", "Lotte", "Noah", "Sanne", "Sem", "Tess", "Lucas", "Mila", "Finn", "Zoë", "Jesse", "Fleur"}
var truthFamily = []string{"Jansen", "de Vries", "van den Berg", "Bakker", "Visser", "Smit", "Meijer", "de Boer", "Mulder", "de Groot",
	"Bos", "Vos", "Peters", "Hendriks", "van Leeuwen", "Dekker", "Brouwer", "de Wit", "Dijkstra", "Smits"}

var truthOnce struct {
	done bool
	f    *truthFixture
}

func loadTruth(b *testing.B) *truthFixture {
	b.Helper()
	if truthOnce.done {
		if truthOnce.f == nil {
			b.Fatal("the seed failed")
		}
		return truthOnce.f
	}
	truthOnce.done = true
	plan := truthPlan{users: envInt("TRUTH_USERS", 20_000), roles: envInt("TRUTH_ROLES", 200), bigRole: envInt("TRUTH_BIG_ROLE", 6_000)}
	var items, requests, written atomic.Int64
	client, table := truthTable(b, plan, &items, &requests, &written)
	store := dynamo.New(client, table, nil)
	store.SetSeedWriters(envInt("TRUTH_SEED_WRITERS", dynamo.DefaultSeedWriters))
	// TRUTH_SEARCH_BOUND lowers the user search's bound, so that a reduced
	// scale shows what words too broad to answer cost (each reads the
	// bound, not the table).
	bound := envInt("TRUTH_SEARCH_BOUND", dynamo.DefaultSearchBound)
	store.SetSearchBound(bound)
	f := &truthFixture{svc: &service.Service{Store: store, Queue: nopQueue{}, PublicBaseURL: "https://invite.example.org"},
		store: store, items: &items, requests: &requests, bound: bound, bigRole: 1}
	now := time.Date(2026, 11, 1, 8, 0, 0, 0, time.UTC)
	f.roles = plan.rolesOf(now)
	seeded := seedTruth(b, client, table, store, plan, now, &written)
	if seeded == 0 {
		b.Fatal("no user is seeded yet (TRUTH_SEED_UNTIL passed before the first chunk)")
	}
	// The brute force knows the users seeded, whatever scale was reached.
	for i := range seeded {
		u, ur, org := plan.user(i, now)
		f.users = append(f.users, truthUserOf(u, org))
		if ur.RoleID == f.bigRole {
			f.bigMembers = append(f.bigMembers, u.ID)
		}
	}
	b.Logf("the table holds %d users in %d roles (%d organizations; role 1 with %d members)", seeded, plan.roles, plan.organizations(), len(f.bigMembers))
	truthOnce.f = f
	return f
}

// countItemsRead counts requests and the items each read: a Query's
// scanned items, a BatchGetItem's and GetItem's items.
func countItemsRead(items, requests *atomic.Int64) func(*dynamodb.Options) {
	return func(o *dynamodb.Options) {
		o.APIOptions = append(o.APIOptions, func(stack *middleware.Stack) error {
			return stack.Initialize.Add(middleware.InitializeMiddlewareFunc("countItemsRead",
				func(ctx context.Context, in middleware.InitializeInput, next middleware.InitializeHandler) (middleware.InitializeOutput, middleware.Metadata, error) {
					requests.Add(1)
					out, md, err := next.HandleInitialize(ctx, in)
					switch r := out.Result.(type) {
					case *dynamodb.QueryOutput:
						items.Add(int64(r.ScannedCount))
					case *dynamodb.BatchGetItemOutput:
						for _, got := range r.Responses {
							items.Add(int64(len(got)))
						}
					case *dynamodb.GetItemOutput:
						if r.Item != nil {
							items.Add(1)
						}
					}
					return out, md, err
				}), middleware.Before)
		})
	}
}

func truthSplit(s string) []string {
	return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
}

// truthUserOf derives, by the documented rule, a user's search words
// (names, the e-mail's local part whole and its words; distinct, sorted,
// at most 16) and place in the listing by name.
func truthUserOf(u domain.User, org string) truthUser {
	var words []string
	for _, s := range []string{u.GivenName, u.MiddleName, u.FamilyName, u.Name} {
		words = append(words, truthSplit(s)...)
	}
	email := strings.ToLower(u.Email)
	if local, _, ok := strings.Cut(email, "@"); ok {
		words = append(words, local)
	}
	words = append(words, truthSplit(email)...)
	slices.Sort(words)
	words = slices.Compact(words)
	words = words[:min(len(words), 16)]
	return truthUser{id: u.ID, name: u.Name, email: email, org: org, wordList: words,
		listingOrder: strings.ToLower(u.Name) + "#" + fmt.Sprint(u.ID)}
}

func (u truthUser) matches(query []string) bool {
	for _, q := range query {
		if !slices.ContainsFunc(u.wordList, func(w string) bool { return strings.HasPrefix(w, q) }) {
			return false
		}
	}
	return true
}

// bruteSearch is the true answer of a user search over every user.
func (f *truthFixture) bruteSearch(org, query string, page domain.PageRequest) answer {
	var scope []truthUser
	for _, u := range f.users {
		if org == "" || u.org == org {
			scope = append(scope, u)
		}
	}
	var hits []truthUser
	if q := strings.ToLower(strings.TrimSpace(query)); strings.Contains(q, "@") {
		for _, u := range scope {
			if u.email == q {
				hits = append(hits, u)
			}
		}
	}
	if hits == nil {
		words := truthSplit(query)
		// The store reads the people of one word of two or more letters
		// at a time (of the first letter when the query has only
		// letters); a query all of whose words name more than the bound
		// (in the whole table) must be narrowed, unless the organization
		// itself is within the bound.
		selective := len(scope) <= f.bound && org != ""
		onlyLetters := !slices.ContainsFunc(words, func(w string) bool { return len([]rune(w)) >= 2 })
		for i, w := range words {
			if len([]rune(w)) < 2 && !(onlyLetters && i == 0) {
				continue
			}
			named := 0
			for _, u := range f.users {
				if u.matches([]string{w}) {
					named++
				}
			}
			selective = selective || named <= f.bound
		}
		if !selective && len(words) > 0 {
			return answer{narrow: true}
		}
		for _, u := range scope {
			if u.matches(words) {
				hits = append(hits, u)
			}
		}
	}
	slices.SortFunc(hits, func(a, b truthUser) int { return cmp.Compare(a.listingOrder, b.listingOrder) })
	return pageOf(hits, page, func(u truthUser) int64 { return u.id })
}

func pageOf[T any](all []T, page domain.PageRequest, id func(T) int64) answer {
	a := answer{total: int64(len(all)), ids: []int64{}}
	for _, x := range all[min(page.Offset(), len(all)):min(page.Offset()+page.Size, len(all))] {
		a.ids = append(a.ids, id(x))
	}
	return a
}

func (f *truthFixture) storeSearch(org, query string, page domain.PageRequest) answer {
	got, err := f.store.SearchUsers(context.Background(), domain.UserSearch{OrganizationGUID: org, Page: page})
	if _, broad := domain.IsSearchTooBroad(err); broad {
		return answer{narrow: true}
	}
	if err != nil {
		return answer{err: err.Error()}
	}
	a := answer{total: got.Total, ids: []int64{}}
	for _, u := range got.Items {
		a.ids = append(a.ids, u.ID)
	}
	return a
}

func (f *truthFixture) kinds() []truthKind {
	last := f.users[len(f.users)-1]
	mid := f.users[len(f.users)/2]
	org := last.org
	search := func(name, org, query string, page domain.PageRequest) truthKind {
		page.Query = query
		return truthKind{name: name, ask: func() answer { return f.storeSearch(org, query, page) }, want: f.bruteSearch(org, query, page)}
	}
	p10 := domain.PageRequest{Size: 10}
	kinds := []truthKind{
		search("user/exact-email", "", last.email, p10),
		search("user/exact-email-org", org, last.email, p10),
		search("user/email-local-part", "", strings.Split(mid.email, "@")[0], p10),
		search("user/two-words", "", mid.name, p10),
		search("user/name-and-number", "", fmt.Sprintf("%s %d", strings.Fields(mid.name)[0], mid.id/10), p10),
		search("user/one-common-word", "", "anna", p10),
		// A letter: every word starting with it (a family name's initial).
		search("user/one-letter", "", string([]rune(strings.ToLower(strings.Fields(mid.name)[len(strings.Fields(mid.name))-1]))[:1]), p10),
		search("user/org-two-words", org, last.name, domain.PageRequest{Size: 10, Number: 1}),
		search("user/listing-page-3", "", "", domain.PageRequest{Size: 10, Number: 3}),
		search("user/org-listing", org, "", p10),
	}
	byName := slices.Clone(f.roles)
	slices.SortFunc(byName, func(a, b domain.Role) int { return cmp.Compare(strings.ToLower(a.Name), strings.ToLower(b.Name)) })
	rolePage := domain.PageRequest{Size: 10, Number: 2, Sort: "name"}
	kinds = append(kinds, truthKind{name: "role/list-page-3",
		ask: func() answer {
			got, _, err := f.svc.ListRoles(context.Background(), benchAdmin, rolePage, false)
			if err != nil {
				return answer{err: err.Error()}
			}
			a := answer{total: got.Total, ids: []int64{}}
			for _, r := range got.Items {
				a.ids = append(a.ids, r.ID)
			}
			return a
		},
		want: pageOf(byName, rolePage, func(r domain.Role) int64 { return r.ID })})
	kinds = append(kinds, f.roleKinds()...)
	kinds = append(kinds, f.bigRoleKinds()...)
	return kinds
}

// truthSides makes some members of the largest role non-guests: every
// tenth an INVITER, every fiftieth a MANAGER with the guest role (on both
// sides of U9), so that each side of its members search is paged among
// members of the other.
func truthSides(ur *domain.UserRole) {
	if ur.RoleID != 1 {
		return
	}
	switch {
	case ur.UserID%50 == 7:
		ur.Authority, ur.GuestRoleIncluded = domain.Manager, true
	case ur.UserID%10 == 3:
		ur.Authority = domain.Inviter
	}
}

// bigRoleKinds are the largest role's members: a page of its guests and
// of its non-guests (U9, by name) and of all its members (U10 paged), each
// against the members in memory in the members index's order (lower-case
// name, then the user id as text).
func (f *truthFixture) bigRoleKinds() []truthKind {
	var guests, others, all []truthUser
	for _, uid := range f.bigMembers {
		ur := domain.UserRole{UserID: uid, RoleID: 1, Authority: domain.Guest}
		truthSides(&ur)
		u := f.users[uid-1]
		all = append(all, u)
		if ur.Authority == domain.Guest || ur.GuestRoleIncluded {
			guests = append(guests, u)
		}
		if ur.Authority != domain.Guest {
			others = append(others, u)
		}
	}
	for _, side := range [][]truthUser{guests, others, all} {
		slices.SortFunc(side, func(a, b truthUser) int { return cmp.Compare(a.listingOrder, b.listingOrder) })
	}
	page := domain.PageRequest{Size: 10, Number: 2, Sort: "name"}
	asked := func(got domain.Page[domain.Member], err error) answer {
		if err != nil {
			return answer{err: err.Error()}
		}
		a := answer{total: got.Total, ids: []int64{}}
		for _, m := range got.Items {
			a.ids = append(a.ids, m.User.ID)
		}
		return a
	}
	id := func(u truthUser) int64 { return u.id }
	ctx := context.Background()
	return []truthKind{
		{name: "role/members-of-largest-page-3",
			ask:  func() answer { return asked(f.svc.SearchMembersOfRole(ctx, benchAdmin, f.bigRole, true, page)) },
			want: pageOf(guests, page, id)},
		{name: "role/members-others-largest-page-3",
			ask:  func() answer { return asked(f.svc.SearchMembersOfRole(ctx, benchAdmin, f.bigRole, false, page)) },
			want: pageOf(others, page, id)},
		{name: "role/all-members-largest-page-3",
			ask:  func() answer { return asked(f.svc.PageMembersOfRole(ctx, benchAdmin, f.bigRole, page)) },
			want: pageOf(all, page, id)},
		deepByToken("role/members-of-largest-deep-by-token", guests, func(req domain.PageRequest) (domain.Page[domain.Member], error) {
			return f.svc.SearchMembersOfRole(ctx, benchAdmin, f.bigRole, true, req)
		}),
		deepByToken("role/all-members-largest-deep-by-token", all, func(req domain.PageRequest) (domain.Page[domain.Member], error) {
			return f.svc.PageMembersOfRole(ctx, benchAdmin, f.bigRole, req)
		}),
	}
}

// deepByToken is a page four fifths into a side of the largest role, asked
// as a client walking the role asks it: by the token of the page before.
// That page is asked once by number, outside the timed asks, for its token.
func deepByToken(name string, side []truthUser, pageOf func(domain.PageRequest) (domain.Page[domain.Member], error)) truthKind {
	before := domain.PageRequest{Size: 10, Number: len(side) * 4 / 5 / 10, Sort: "name"}
	deep := before
	deep.Number++
	var want answer
	for _, u := range side[min(deep.Offset(), len(side)):min(deep.Offset()+deep.Size, len(side))] {
		want.ids = append(want.ids, u.id)
	}
	want.total = int64(len(side))
	got, err := pageOf(before)
	if err != nil || got.Next == "" {
		return truthKind{name: name, ask: func() answer { return answer{err: fmt.Sprintf("no token before the deep page: %v", err)} }, want: want}
	}
	deep.After = got.Next
	return truthKind{name: name, want: want, ask: func() answer {
		got, err := pageOf(deep)
		if err != nil {
			return answer{err: err.Error()}
		}
		a := answer{total: got.Total, ids: []int64{}}
		for _, m := range got.Items {
			a.ids = append(a.ids, m.User.ID)
		}
		return a
	}}
}

// roleKinds are the role listings and searches (R1, the console's role
// list) beside the list by name: an organization's page in another order,
// a search by a role's number, and one by the word every role shares,
// each against the roles in memory.
func (f *truthFixture) roleKinds() []truthKind {
	orgAdmin := &auth.Principal{Kind: auth.KindPerson, OrganizationGUID: "org-0", Name: "bench-admin",
		User: &domain.User{ID: -1, InstitutionAdmin: true}}
	listing := func(p *auth.Principal, page domain.PageRequest) func() answer {
		return func() answer {
			got, _, err := f.svc.ListRoles(context.Background(), p, page, false)
			if _, broad := domain.IsSearchTooBroad(err); broad {
				return answer{narrow: true}
			}
			if err != nil {
				return answer{err: err.Error()}
			}
			a := answer{total: got.Total, ids: []int64{}}
			for _, r := range got.Items {
				a.ids = append(a.ids, r.ID)
			}
			return a
		}
	}
	brute := func(org string, page domain.PageRequest) answer {
		words := truthSplit(page.Query)
		var scope, hits []domain.Role
		for _, r := range f.roles {
			if org == "" || r.OrganizationGUID == org {
				scope = append(scope, r)
			}
		}
		selective := len(words) == 0 || len(scope) <= dynamo.DefaultRoleListingBound
		for _, w := range words {
			named := 0
			for _, r := range scope {
				if slices.ContainsFunc(truthSplit(r.Name+" "+r.Description), func(x string) bool { return strings.HasPrefix(x, w) }) {
					named++
				}
			}
			selective = selective || named <= dynamo.DefaultRoleListingBound
		}
		if !selective {
			return answer{narrow: true}
		}
		for _, r := range scope {
			rw := truthSplit(r.Name + " " + r.Description)
			if !slices.ContainsFunc(words, func(w string) bool {
				return !slices.ContainsFunc(rw, func(x string) bool { return strings.HasPrefix(x, w) })
			}) {
				hits = append(hits, r)
			}
		}
		slices.SortFunc(hits, func(a, b domain.Role) int {
			c := strings.Compare(domain.RoleSortKey(a, page.Sort), domain.RoleSortKey(b, page.Sort))
			if page.Descending {
				return -c
			}
			return c
		})
		return pageOf(hits, page, func(r domain.Role) int64 { return r.ID })
	}
	kind := func(name string, p *auth.Principal, org string, page domain.PageRequest) truthKind {
		return truthKind{name: name, ask: listing(p, page), want: brute(org, page)}
	}
	number := fmt.Sprintf("%06d", len(f.roles)/2+1)
	return []truthKind{
		kind("role/org-list-by-id-desc-page-2", orgAdmin, "org-0", domain.PageRequest{Size: 10, Number: 1, Sort: "id", Descending: true}),
		kind("role/search-by-number", benchAdmin, "", domain.PageRequest{Size: 10, Query: number}),
		kind("role/org-search-by-number", orgAdmin, "org-0", domain.PageRequest{Size: 10, Query: "course " + number}),
		kind("role/search-common-word", benchAdmin, "", domain.PageRequest{Size: 10, Number: 1, Query: "course"}),
	}
}
