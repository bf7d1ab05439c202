package dynamo_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/edu-invite/invite/shared/domain"
	"github.com/edu-invite/invite/shared/dynamo"
)

// boundedSearchStore seeds a small table whose search bound is 4, so that
// the words every address shares (uni, example, org) and the family name
// Jansen name more people than the bound, as a domain's words do at a
// national deployment. Person 9 (Nina Target) sorts last among the word
// items of "example" (their keys end in the id as text: 1, 10, 11, …, 9).
// org-1 holds everyone but 30–32, who are org-2's three people.
func boundedSearchStore(t *testing.T) (*dynamo.Store, func() int64) {
	t.Helper()
	s, requests, _ := boundedSearchStoreWithTable(t)
	return s, requests
}

// boundedSearchStoreWithTable is boundedSearchStore with an uncounted
// client of its table, to age its items behind the store's back.
func boundedSearchStoreWithTable(t *testing.T) (*dynamo.Store, func() int64, rawTable) {
	t.Helper()
	s, requests, raw := countingStoreWithTable(t)
	s.SetSearchBound(4)
	people := map[int64]string{
		1: "Ada Smit", 2: "Bob Smit", 3: "Cor Visser", 4: "Dana Visser", 5: "Eva Bakker",
		9:  "Nina Target",
		10: "Bert Jansen", 11: "Carl Jansen", 12: "Dirk Jansen", 13: "Anna C Jansen", 14: "Anna B Jansen", 15: "Anna A Jansen",
		20: "Julia Alpha", 21: "Julia Beta", 22: "Julia de Groot", 23: "Julia Gamma", 24: "Julia de Boer", 25: "Julia de Wit",
		26: "Piet de Vries",
		30: "Olga One", 31: "Olga Two", 32: "Otto Three",
	}
	two := role(2, "Two")
	two.OrganizationGUID = "org-2"
	seed := domain.Seed{Roles: []domain.Role{role(1, "One"), two}}
	for _, uid := range slices.Sorted(func(yield func(int64) bool) {
		for k := range people {
			if !yield(k) {
				return
			}
		}
	}) {
		u := domain.User{ID: uid, Sub: fmt.Sprint("urn:collab:person:uni.example.org:p", uid), Name: people[uid],
			Email: fmt.Sprint("p", uid, "@uni.example.org"), EduPersonPrincipalName: fmt.Sprint("p", uid, "@uni.example.org"), CreatedAt: testNow}
		if uid == 9 {
			u.Email, u.EduPersonPrincipalName, u.Sub = "n.target@uni.example.org", "NTarget@uni.example.org", "urn:collab:person:uni.example.org:ntarget"
		}
		roleID := int64(1)
		if uid >= 30 {
			roleID = 2
		}
		seed.Users = append(seed.Users, u)
		seed.UserRoles = append(seed.UserRoles, domain.UserRole{ID: uid, UserID: uid, RoleID: roleID, Authority: domain.Guest, CreatedAt: testNow})
	}
	must(t, s.Seed(ctx(t), seed))
	return s, requests.Load, raw
}

// TestUserSearchAnswersExactlyPastTheBound: each answer a search gave
// wrong once a word named more people than it read (the whole e-mail
// address behind a common word, totals, the first page, two-word totals)
// is exact, and a query whose every word is that common says it must be
// narrowed instead of answering part of the truth.
func TestUserSearchAnswersExactlyPastTheBound(t *testing.T) {
	s, _ := boundedSearchStore(t)
	cases := []struct {
		name, org, query string
		size             int
		want             []string
		total            int64
		broad            bool
	}{
		{"whole e-mail behind a common word", "", "n.target@uni.example.org", 10, []string{"Nina Target"}, 1, false},
		{"whole e-mail in the organization", "org-1", "n.target@uni.example.org", 10, []string{"Nina Target"}, 1, false},
		{"whole e-mail, another organization", "org-2", "n.target@uni.example.org", 10, nil, 0, false},
		{"total behind a common longest word", "", "anna jansen", 10, []string{"Anna A Jansen", "Anna B Jansen", "Anna C Jansen"}, 3, false},
		{"first page in name order", "", "jansen anna", 2, []string{"Anna A Jansen", "Anna B Jansen"}, 3, false},
		{"first page in the organization", "org-1", "anna jansen", 2, []string{"Anna A Jansen", "Anna B Jansen"}, 3, false},
		{"two-word total", "", "julia de", 10, []string{"Julia de Boer", "Julia de Groot", "Julia de Wit"}, 3, false},
		{"two-word total in the organization", "org-1", "Julia de", 10, []string{"Julia de Boer", "Julia de Groot", "Julia de Wit"}, 3, false},
		{"every word common: narrow it", "", "example org", 10, nil, 0, true},
		{"one common word: narrow it", "", "jansen", 10, nil, 0, true},
		{"common word, large organization: narrow it", "org-1", "example", 10, nil, 0, true},
		{"common word, organization within the bound", "org-2", "example", 10, []string{"Olga One", "Olga Two", "Otto Three"}, 3, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			page, err := s.SearchUsers(ctx(t), domain.UserSearch{OrganizationGUID: c.org, Page: domain.PageRequest{Query: c.query, Size: c.size}})
			if c.broad {
				if domain.KindOf(err) != domain.KindInvalid {
					t.Fatalf("want a request to narrow the query, got %v (%d: %v)", err, page.Total, names(page.Items))
				}
				return
			}
			must(t, err)
			if got := names(page.Items); !slices.Equal(got, c.want) || page.Total != c.total {
				t.Errorf("got %v (total %d), want %v (total %d)", got, page.Total, c.want, c.total)
			}
		})
	}
}

// TestUserSearchFindsIdentifiersInTwoRequests: a whole e-mail address,
// eppn, sub or user id finds its person in at most two requests, however
// many people share the words it is made of; in another organization it
// finds no one.
func TestUserSearchFindsIdentifiersInTwoRequests(t *testing.T) {
	s, requests := boundedSearchStore(t)
	for _, c := range []struct {
		name, org, query string
		want             []string
	}{
		{"e-mail", "", "n.target@uni.example.org", []string{"Nina Target"}},
		{"e-mail, other case", "org-1", "N.Target@UNI.example.org", []string{"Nina Target"}},
		{"eppn", "", "ntarget@uni.example.org", []string{"Nina Target"}},
		{"eppn in the organization", "org-1", "NTarget@uni.example.org", []string{"Nina Target"}},
		{"sub", "", "urn:collab:person:uni.example.org:ntarget", []string{"Nina Target"}},
		{"sub in the organization", "org-1", "urn:collab:person:uni.example.org:ntarget", []string{"Nina Target"}},
		{"user id", "", "9", []string{"Nina Target"}},
		{"user id in the organization", "org-1", " 9 ", []string{"Nina Target"}},
		{"user id of another organization", "org-2", "9", nil},
		{"e-mail of another organization", "org-1", "p31@uni.example.org", nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			before := requests()
			page, err := s.SearchUsers(ctx(t), domain.UserSearch{OrganizationGUID: c.org, Page: domain.PageRequest{Query: c.query, Size: 10}})
			must(t, err)
			n := requests() - before
			if got := names(page.Items); !slices.Equal(got, c.want) || page.Total != int64(len(c.want)) {
				t.Errorf("got %v (total %d), want %v", got, page.Total, c.want)
			}
			if c.want != nil && n > 2 {
				t.Errorf("%d requests, want at most 2", n)
			}
		})
	}
}
