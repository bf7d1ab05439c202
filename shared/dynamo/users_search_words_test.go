package dynamo_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/edu-invite/invite/shared/domain"
)

// TestUserSearchPageCostsAtMostThreeRequests: a search page of all users
// is answered from the word items (or the listing index for one letter)
// plus one BatchGetItem of the page's users, however many users match.
func TestUserSearchPageCostsAtMostThreeRequests(t *testing.T) {
	s, requests := countingStore(t)
	seedUsers(t, s, 1, 1200) // 120 Zeldas, 1,080 Annas (more than maxSearchMatches)
	cases := []struct {
		name  string
		page  domain.PageRequest
		total int64
		first string
	}{
		{"word", domain.PageRequest{Size: 10, Query: "zel"}, 120, "Zelda Family10"},
		{"word, page 3, descending", domain.PageRequest{Size: 10, Number: 3, Query: "zelda", Descending: true}, 120, ""},
		{"two words", domain.PageRequest{Size: 10, Query: "family11 zelda"}, 11, "Zelda Family110"},
		{"one common word and a selective one", domain.PageRequest{Size: 25, Query: "anna family119"}, 10, "Anna Family119"},
		{"one letter", domain.PageRequest{Size: 10, Query: "z"}, 120, "Zelda Family10"},
		{"e-mail", domain.PageRequest{Size: 10, Query: "u1199"}, 1, "Anna Family1199"},
	}
	// A word naming more people than the bound (1,080 Annas) is too broad
	// to answer alone.
	if _, err := s.SearchUsers(ctx(t), domain.UserSearch{Page: domain.PageRequest{Size: 25, Query: "anna"}}); domain.KindOf(err) != domain.KindInvalid {
		t.Errorf("anna: %v, want a request to narrow the query", err)
	}
	for _, c := range cases {
		before := requests.Load()
		page, err := s.SearchUsers(ctx(t), domain.UserSearch{Page: c.page})
		must(t, err)
		n := requests.Load() - before
		t.Logf("%s: %d requests", c.name, n)
		if n > 3 {
			t.Errorf("%s: %d requests for a page, want at most 3", c.name, n)
		}
		if page.Total != c.total {
			t.Errorf("%s: total %d, want %d", c.name, page.Total, c.total)
		}
		if c.first != "" && (len(page.Items) == 0 || page.Items[0].Name != c.first) {
			t.Errorf("%s: first %v, want %s", c.name, names(page.Items), c.first)
		}
		sorted := slices.IsSortedFunc(page.Items, func(a, b domain.User) int {
			if c.page.Descending {
				a, b = b, a
			}
			return compareLower(a.Name, b.Name)
		})
		if !sorted || len(page.Items) != min(c.page.Size, int(c.total)) {
			t.Errorf("%s: page %v not a sorted page of %d", c.name, names(page.Items), c.page.Size)
		}
	}
}

// TestUserSearchFollowsRenames: after a change of name the word items
// carry the new sort name (the order) and words (the match).
func TestUserSearchFollowsRenames(t *testing.T) {
	s, _ := countingStore(t)
	seedUsers(t, s, 1, 30)
	u, err := s.GetUser(ctx(t), 20)
	must(t, err)
	u.Name = "Zelda Aardvark" // same words but one, new sort name
	u.FamilyName = "Aardvark"
	must(t, s.UpdateUser(ctx(t), u, nil))
	page, err := s.SearchUsers(ctx(t), domain.UserSearch{Page: domain.PageRequest{Size: 10, Query: "zelda"}})
	must(t, err)
	if got := names(page.Items); !slices.Equal(got, []string{"Zelda Aardvark", "Zelda Family10", "Zelda Family30"}) {
		t.Errorf("after rename: %v", got)
	}
	page, err = s.SearchUsers(ctx(t), domain.UserSearch{Page: domain.PageRequest{Size: 10, Query: "zelda family20"}})
	must(t, err)
	if page.Total != 0 {
		t.Errorf("old family name still found: %v", names(page.Items))
	}
	page, err = s.SearchUsers(ctx(t), domain.UserSearch{Page: domain.PageRequest{Size: 10, Query: "aardv zel"}})
	must(t, err)
	if got := names(page.Items); !slices.Equal(got, []string{"Zelda Aardvark"}) {
		t.Errorf("new family name: %v", got)
	}
}

func compareLower(a, b string) int { return strings.Compare(strings.ToLower(a), strings.ToLower(b)) }

func names(users []domain.User) []string {
	out := make([]string, len(users))
	for i, u := range users {
		out[i] = u.Name
	}
	return out
}
