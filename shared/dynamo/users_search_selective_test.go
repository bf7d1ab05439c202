package dynamo_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/smithy-go/middleware"

	"github.com/edu-invite/invite/shared/domain"
	"github.com/edu-invite/invite/shared/dynamo"
	"github.com/edu-invite/invite/shared/dynamo/dynamotest"
)

// wordRead is one Query of a word's items as the store sent it: the
// prefix, whether it asked for the users' sort keys (a read to answer
// from) or their ids only (a count), and whether it asked for their words.
type wordRead struct {
	prefix                 string
	withListing, withWords bool
}

// wordReadLog records the requests of a store and its Queries of word
// items.
type wordReadLog struct {
	requests atomic.Int64
	mu       sync.Mutex
	reads    []wordRead
}

func (l *wordReadLog) take() (int64, []wordRead) {
	l.mu.Lock()
	defer l.mu.Unlock()
	reads := l.reads
	l.reads = nil
	return l.requests.Swap(0), reads
}

func (l *wordReadLog) record(in *dynamodb.QueryInput) {
	var pk, prefix string
	for _, v := range in.ExpressionAttributeValues {
		s, ok := v.(*types.AttributeValueMemberS)
		if !ok {
			continue
		}
		if strings.HasPrefix(s.Value, "UWORD#") {
			pk = s.Value
		} else {
			prefix = s.Value
		}
	}
	if pk == "" {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	projected := func(attr string) bool {
		for placeholder, name := range in.ExpressionAttributeNames {
			if name == attr && strings.Contains(aws.ToString(in.ProjectionExpression), placeholder) {
				return true
			}
		}
		return false
	}
	l.reads = append(l.reads, wordRead{prefix: prefix, withListing: projected("listingSk"), withWords: projected("words")})
}

// selectiveSearchStore seeds people whose words name more or fewer people
// than a search bound of 4: jansen 7, de 7, uni/example/org everyone,
// ole 5 (one past the bound), boer 4 (the bound), wit 3, olga 4 people with
// two items each ("olga" and the e-mail's local part "olga.x…"). org-2
// holds Pim, Quin and Rob (three Jansens) only.
func selectiveSearchStore(t *testing.T) (*dynamo.Store, *wordReadLog) {
	t.Helper()
	log := &wordReadLog{}
	client, table := dynamotest.NewClient(t, func(o *dynamodb.Options) {
		o.APIOptions = append(o.APIOptions, func(stack *middleware.Stack) error {
			return stack.Initialize.Add(middleware.InitializeMiddlewareFunc("logWordReads",
				func(ctx context.Context, in middleware.InitializeInput, next middleware.InitializeHandler) (middleware.InitializeOutput, middleware.Metadata, error) {
					log.requests.Add(1)
					if q, ok := in.Parameters.(*dynamodb.QueryInput); ok {
						log.record(q)
					}
					return next.HandleInitialize(ctx, in)
				}), middleware.Before)
		})
	})
	s := dynamo.New(client, table, func() time.Time { return testNow })
	s.SetSearchBound(4)
	people := []struct {
		id          int64
		name, local string
	}{
		{1, "Bert Jansen", ""}, {2, "Carl Jansen", ""}, {3, "Dirk Jansen de Wit", ""}, {4, "Eva Jansen de Boer", ""},
		{5, "Fay Jansen de Boer", ""}, {6, "Gus Jansen", ""}, {7, "Hans de Wit", ""}, {8, "Ida de Boer", ""},
		{9, "Jan de Vries", ""}, {10, "Kim Jansen de Wit Boer", ""},
		{11, "Ole Aa", ""}, {12, "Ole Bb", ""}, {13, "Ole Cc", ""}, {14, "Ole Dd", ""}, {15, "Ole Ee", ""},
		{21, "Olga Xa", "olga.xa"}, {22, "Olga Xb", "olga.xb"}, {23, "Olga Xc", "olga.xc"}, {24, "Olga Xd", "olga.xd"},
		{31, "Pim Jansen", ""}, {32, "Quin Jansen", ""}, {33, "Rob Jansen Vos", ""},
	}
	two := role(2, "Two")
	two.OrganizationGUID = "org-2"
	seed := domain.Seed{Roles: []domain.Role{role(1, "One"), two}}
	for _, p := range people {
		local := p.local
		if local == "" {
			local = fmt.Sprint("p", p.id)
		}
		seed.Users = append(seed.Users, domain.User{ID: p.id, Sub: fmt.Sprint("sub-", p.id), Name: p.name,
			Email: local + "@uni.example.org", CreatedAt: testNow})
		roleID := int64(1)
		if p.id > 30 {
			roleID = 2
		}
		seed.UserRoles = append(seed.UserRoles, domain.UserRole{ID: p.id, UserID: p.id, RoleID: roleID, Authority: domain.Guest, CreatedAt: testNow})
	}
	must(t, s.Seed(ctx(t), seed))
	log.take()
	return s, log
}

// TestUserSearchReadsTheMostSelectiveWord: whichever key word names at
// most the bound (the first, the second, the third), the answer is exact;
// only the first key word and the word naming the fewest people are read
// with their sort keys and words, the others counted from their ids; a
// query whose every word is too broad costs one request per key word; one
// key word is counted before it is read, and its people are counted, not
// its items.
func TestUserSearchReadsTheMostSelectiveWord(t *testing.T) {
	s, log := selectiveSearchStore(t)
	cases := []struct {
		name, org, query string
		want             []string
		broad            bool
		requests         int64
		readWhole        []string // words read with sort keys, in any order
		counted          []string // words read as ids only
		oneWord          bool     // no read asks for the people's words
	}{
		{name: "the second word", query: "jansen wit",
			want: []string{"Dirk Jansen de Wit", "Kim Jansen de Wit Boer"}, requests: 4,
			readWhole: []string{"jansen", "wit"}, counted: []string{"wit"}},
		{name: "the third word", query: "jansen uni wit",
			want: []string{"Dirk Jansen de Wit", "Kim Jansen de Wit Boer"}, requests: 5,
			readWhole: []string{"jansen", "wit"}, counted: []string{"uni", "wit"}},
		{name: "the fewer of two selective words", query: "jansen boer wit",
			want: []string{"Kim Jansen de Wit Boer"}, requests: 5,
			readWhole: []string{"jansen", "wit"}, counted: []string{"boer", "wit"}},
		{name: "the first word (a number): the others not even counted", query: "jansen p10",
			want: []string{"Kim Jansen de Wit Boer"}, requests: 2,
			readWhole: []string{"p10"}},
		{name: "every word too broad", query: "jansen de", broad: true, requests: 2,
			readWhole: []string{"jansen"}, counted: []string{"de"}},
		{name: "three words all too broad", query: "example jansen org", broad: true, requests: 3,
			readWhole: []string{"example"}, counted: []string{"jansen", "org"}},
		{name: "one word at the bound", query: "boer",
			want: []string{"Eva Jansen de Boer", "Fay Jansen de Boer", "Ida de Boer", "Kim Jansen de Wit Boer"}, requests: 2,
			readWhole: []string{"boer"}, oneWord: true},
		{name: "one word under the bound", query: "wit",
			want: []string{"Dirk Jansen de Wit", "Hans de Wit", "Kim Jansen de Wit Boer"}, requests: 2,
			readWhole: []string{"wit"}, oneWord: true},
		{name: "one word past the bound", query: "ole", broad: true, requests: 1,
			readWhole: []string{"ole"}, oneWord: true},
		{name: "a word and a prefix of it", query: "wit w",
			want: []string{"Dirk Jansen de Wit", "Hans de Wit", "Kim Jansen de Wit Boer"}, requests: 2,
			readWhole: []string{"wit"}, oneWord: true},
		{name: "a word and another one-letter word", query: "wit h",
			want: []string{"Hans de Wit"}, requests: 2,
			readWhole: []string{"wit"}},
		{name: "one word whose people have two items each", query: "olga",
			want: []string{"Olga Xa", "Olga Xb", "Olga Xc", "Olga Xd"}, requests: 3,
			readWhole: []string{"olga", "olga"}, oneWord: true},
		{name: "behind a broad word, a word whose people have two items each", query: "example olga",
			want: []string{"Olga Xa", "Olga Xb", "Olga Xc", "Olga Xd"}, requests: 6,
			readWhole: []string{"example", "olga", "olga"}, counted: []string{"olga", "olga"}},
		{name: "organization within the bound, every word too broad", org: "org-2", query: "jansen uni",
			want: []string{"Pim Jansen", "Quin Jansen", "Rob Jansen Vos"}, requests: 5,
			readWhole: []string{"jansen"}, counted: []string{"uni"}},
		{name: "large organization, every word too broad", org: "org-1", query: "jansen uni", broad: true, requests: 3,
			readWhole: []string{"jansen"}, counted: []string{"uni"}},
		{name: "organization, a selective word", org: "org-2", query: "jansen vos",
			want: []string{"Rob Jansen Vos"}, requests: 5,
			readWhole: []string{"jansen", "vos"}, counted: []string{"vos"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			log.take()
			page, err := s.SearchUsers(ctx(t), domain.UserSearch{OrganizationGUID: c.org, Page: domain.PageRequest{Query: c.query, Size: 10}})
			requests, reads := log.take()
			if c.broad {
				if _, ok := domain.IsSearchTooBroad(err); !ok {
					t.Fatalf("want a request to narrow the query, got %v (%d: %v)", err, page.Total, names(page.Items))
				}
			} else {
				must(t, err)
				if got := names(page.Items); !slices.Equal(got, c.want) || page.Total != int64(len(c.want)) {
					t.Errorf("got %v (total %d), want %v", got, page.Total, c.want)
				}
			}
			if requests != c.requests {
				t.Errorf("%d requests, want %d", requests, c.requests)
			}
			var whole, counted []string
			for _, r := range reads {
				if r.withWords && c.oneWord {
					t.Errorf("%q read with the people's words", r.prefix)
				}
				if r.withListing && !r.withWords && !c.oneWord {
					t.Errorf("%q read without the people's words", r.prefix)
				}
				if r.withListing {
					whole = append(whole, r.prefix)
				} else {
					counted = append(counted, r.prefix)
				}
			}
			slices.Sort(whole)
			slices.Sort(counted)
			if !slices.Equal(whole, c.readWhole) || !slices.Equal(counted, c.counted) {
				t.Errorf("read whole %v and counted %v, want %v and %v", whole, counted, c.readWhole, c.counted)
			}
		})
	}
}

// TestUserSearchTotalsAroundTheBound: a word naming exactly the bound is
// answered with its exact total, one more person makes it too broad, and
// one fewer brings it back, whether the word is asked alone or behind a
// broader first word.
func TestUserSearchTotalsAroundTheBound(t *testing.T) {
	s, _ := selectiveSearchStore(t)
	ask := func(query string) (int64, bool) {
		t.Helper()
		page, err := s.SearchUsers(ctx(t), domain.UserSearch{Page: domain.PageRequest{Query: query, Size: 10}})
		if _, broad := domain.IsSearchTooBroad(err); broad {
			return 0, true
		}
		must(t, err)
		return page.Total, false
	}
	check := func(when string, want int64, wantBroad bool) {
		t.Helper()
		for _, q := range []string{"boer", "jansen boer"} {
			wantTotal := want
			if q == "jansen boer" && !wantBroad {
				wantTotal = want - 1 // Ida de Boer is no Jansen
			}
			if total, broad := ask(q); broad != wantBroad || (!broad && total != wantTotal) {
				t.Errorf("%s, %q: total %d, too broad %v; want %d, too broad %v", when, q, total, broad, wantTotal, wantBroad)
			}
		}
	}
	check("4 Boers (the bound)", 4, false)
	newcomer := domain.User{ID: 40, Sub: "sub-40", Name: "Lars Jansen de Boer", Email: "p40@uni.example.org", CreatedAt: testNow}
	must(t, s.Seed(ctx(t), domain.Seed{Users: []domain.User{newcomer},
		UserRoles: []domain.UserRole{{ID: 40, UserID: 40, RoleID: 1, Authority: domain.Guest, CreatedAt: testNow}}}))
	check("5 Boers", 0, true)
	u, err := s.GetUser(ctx(t), 40)
	must(t, err)
	u.Name = "Lars Jansen" // no longer a Boer
	must(t, s.UpdateUser(ctx(t), u, nil))
	check("4 Boers again", 4, false)
}
