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

// wordRead is one Query of a word's items as the store began it (a Query
// cancelled later is still one): the prefix, and whether it asked for the
// users' sort keys and their words.
type wordRead struct {
	prefix                 string
	withListing, withWords bool
}

// wordReadLog records the requests of a store and its Queries of word
// items. hold, when set before a search, is called as each Query of word
// items begins, before it is sent.
type wordReadLog struct {
	requests atomic.Int64
	mu       sync.Mutex
	reads    []wordRead
	hold     func()
}

func (l *wordReadLog) take() (int64, []wordRead) {
	l.mu.Lock()
	defer l.mu.Unlock()
	reads := l.reads
	l.reads = nil
	return l.requests.Swap(0), reads
}

// record logs a Query and tells whether it reads word items.
func (l *wordReadLog) record(in *dynamodb.QueryInput) bool {
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
		return false
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
	return true
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
					if q, ok := in.Parameters.(*dynamodb.QueryInput); ok && log.record(q) && log.hold != nil {
						log.hold()
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

// TestUserSearchReadsEveryKeyWordAtOnce: whichever key word names at most
// the bound (the first, the second, the third), the answer is exact; every
// key word is read, with the people's sort keys (and their words when the
// query has other words), and a query whose every word is too broad costs
// one request per key word; one key word's people are counted, not its
// items. When one key word answers, the reads of the others are cancelled:
// a Query begun is logged even when cancelled, and one a cancelled read
// would have sent next may or may not be, so those cases bound the
// requests and ask that the answering word was read.
func TestUserSearchReadsEveryKeyWordAtOnce(t *testing.T) {
	s, log := selectiveSearchStore(t)
	cases := []struct {
		name, org, query string
		want             []string
		broad            bool
		requests         int64    // at most, when another key word's read may be cancelled
		read             []string // the Queries of word items when none is cancelled, in any order
		answers          []string // the key words naming at most the bound, when there are others
		oneWord          bool     // no read asks for the people's words
	}{
		{name: "the second word", query: "jansen wit",
			want: []string{"Dirk Jansen de Wit", "Kim Jansen de Wit Boer"}, requests: 3,
			read: []string{"jansen", "wit"}, answers: []string{"wit"}},
		{name: "the third word", query: "jansen uni wit",
			want: []string{"Dirk Jansen de Wit", "Kim Jansen de Wit Boer"}, requests: 4,
			read: []string{"jansen", "uni", "wit"}, answers: []string{"wit"}},
		{name: "either of two selective words", query: "jansen boer wit",
			want: []string{"Kim Jansen de Wit Boer"}, requests: 4,
			read: []string{"boer", "jansen", "wit"}, answers: []string{"boer", "wit"}},
		{name: "the first word (a number)", query: "jansen p10",
			want: []string{"Kim Jansen de Wit Boer"}, requests: 3,
			read: []string{"jansen", "p10"}, answers: []string{"p10"}},
		{name: "every word too broad", query: "jansen de", broad: true, requests: 2,
			read: []string{"de", "jansen"}},
		{name: "three words all too broad", query: "example jansen org", broad: true, requests: 3,
			read: []string{"example", "jansen", "org"}},
		{name: "one word at the bound", query: "boer",
			want: []string{"Eva Jansen de Boer", "Fay Jansen de Boer", "Ida de Boer", "Kim Jansen de Wit Boer"}, requests: 2,
			read: []string{"boer"}, oneWord: true},
		{name: "one word under the bound", query: "wit",
			want: []string{"Dirk Jansen de Wit", "Hans de Wit", "Kim Jansen de Wit Boer"}, requests: 2,
			read: []string{"wit"}, oneWord: true},
		{name: "one word past the bound", query: "ole", broad: true, requests: 1,
			read: []string{"ole"}, oneWord: true},
		{name: "a word and a prefix of it", query: "wit w",
			want: []string{"Dirk Jansen de Wit", "Hans de Wit", "Kim Jansen de Wit Boer"}, requests: 2,
			read: []string{"wit"}, oneWord: true},
		{name: "a word and another one-letter word", query: "wit h",
			want: []string{"Hans de Wit"}, requests: 2,
			read: []string{"wit"}},
		{name: "one word whose people have two items each", query: "olga",
			want: []string{"Olga Xa", "Olga Xb", "Olga Xc", "Olga Xd"}, requests: 3,
			read: []string{"olga", "olga"}, oneWord: true},
		{name: "beside a broad word, a word whose people have two items each", query: "example olga",
			want: []string{"Olga Xa", "Olga Xb", "Olga Xc", "Olga Xd"}, requests: 4,
			read: []string{"example", "olga", "olga"}, answers: []string{"olga"}},
		{name: "organization within the bound, every word too broad", org: "org-2", query: "jansen uni",
			want: []string{"Pim Jansen", "Quin Jansen", "Rob Jansen Vos"}, requests: 5,
			read: []string{"jansen", "uni"}},
		{name: "large organization, every word too broad", org: "org-1", query: "jansen uni", broad: true, requests: 3,
			read: []string{"jansen", "uni"}},
		{name: "organization, a selective word", org: "org-2", query: "jansen vos",
			want: []string{"Rob Jansen Vos"}, requests: 4,
			read: []string{"jansen", "vos"}, answers: []string{"vos"}},
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
			var read []string
			for _, r := range reads {
				if !r.withListing {
					t.Errorf("%q read without the people's sort keys", r.prefix)
				}
				if r.withWords == c.oneWord {
					t.Errorf("%q read with the people's words %v, want %v", r.prefix, r.withWords, !c.oneWord)
				}
				read = append(read, r.prefix)
			}
			slices.Sort(read)
			if c.answers == nil {
				if requests != c.requests || !slices.Equal(read, c.read) {
					t.Errorf("%d requests reading %v, want %d reading %v", requests, read, c.requests, c.read)
				}
				return
			}
			if requests > c.requests {
				t.Errorf("%d requests, want at most %d", requests, c.requests)
			}
			for _, w := range read {
				if !slices.Contains(c.read, w) {
					t.Errorf("read %q, want only %v", w, c.read)
				}
			}
			if !slices.ContainsFunc(c.answers, func(w string) bool { return slices.Contains(read, w) }) {
				t.Errorf("read %v, none of %v", read, c.answers)
			}
		})
	}
}

// TestUserSearchBeginsEveryKeyWordsReadTogether: the reads of the key
// words are begun together, not one after the other: each Query of word
// items is held until every key word's read has begun, which reads one
// after the other never reach (they wait out the hold instead).
func TestUserSearchBeginsEveryKeyWordsReadTogether(t *testing.T) {
	s, log := selectiveSearchStore(t)
	for _, c := range []struct {
		query string
		keys  int
		want  []string // nil: too broad
	}{
		{"example jansen org", 3, nil},
		{"jansen p10", 2, []string{"Kim Jansen de Wit Boer"}},
		{"jansen uni wit", 3, []string{"Dirk Jansen de Wit", "Kim Jansen de Wit Boer"}},
	} {
		t.Run(c.query, func(t *testing.T) {
			var begun atomic.Int32
			var timedOut atomic.Bool
			all := make(chan struct{})
			log.hold = func() {
				if begun.Add(1) == int32(c.keys) {
					close(all)
				}
				select {
				case <-all:
				case <-time.After(10 * time.Second):
					timedOut.Store(true)
				}
			}
			defer func() { log.hold = nil }()
			page, err := s.SearchUsers(ctx(t), domain.UserSearch{Page: domain.PageRequest{Query: c.query, Size: 10}})
			if c.want == nil {
				if _, ok := domain.IsSearchTooBroad(err); !ok {
					t.Fatalf("want a request to narrow the query, got %v", err)
				}
			} else {
				must(t, err)
				if !slices.Equal(names(page.Items), c.want) {
					t.Errorf("got %v, want %v", names(page.Items), c.want)
				}
			}
			if timedOut.Load() {
				t.Errorf("a read waited for the others to begin: %d of %d begun", begun.Load(), c.keys)
			}
		})
	}
}

// TestUserSearchTotalsAroundTheBound: a word naming exactly the bound is
// answered with its exact total, one more person makes it too broad, and
// one fewer brings it back, whether the word is asked alone or beside a
// broader word.
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
