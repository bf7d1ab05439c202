package dynamo_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/edu-invite/invite/shared/domain"
	"github.com/edu-invite/invite/shared/dynamo"
)

// lettersStore has people whose words start with v in different places:
// a given name, a family name after a particle, a family name, an e-mail
// word only; and one without any.
func lettersStore(t *testing.T) *dynamo.Store {
	t.Helper()
	s, _ := countingStore(t)
	seed := domain.Seed{Roles: []domain.Role{role(1, "One")}}
	for i, p := range []struct{ given, family, email string }{
		{"Johan", "de Vries", "j.devries@uni.example.org"},
		{"Vera", "Jansen", "vera@uni.example.org"},
		{"Anna", "Visser", "anna@uni.example.org"},
		{"Bram", "Bakker", "bram@vu.example.org"},
		{"Carla", "Smit", "carla@uni.example.org"},
	} {
		uid := int64(i + 1)
		seed.Users = append(seed.Users, domain.User{ID: uid, Sub: fmt.Sprint("sub-", uid), GivenName: p.given, FamilyName: p.family,
			Name: p.given + " " + p.family, Email: p.email, CreatedAt: testNow})
		seed.UserRoles = append(seed.UserRoles, domain.UserRole{ID: uid, UserID: uid, RoleID: 1, Authority: domain.Guest, CreatedAt: testNow})
	}
	must(t, s.Seed(ctx(t), seed))
	return s
}

// A one-letter query finds every person with a word starting with the
// letter, as a longer word prefix does (not only names starting with it),
// in the organization too, and with another one-letter word every person
// with words starting with each.
func TestOneLetterSearchMatchesWordPrefixes(t *testing.T) {
	f := lettersStore(t)
	for _, tc := range []struct {
		name, org, query string
		want             []string
	}{
		{"a family name after a particle", "", "v", []string{"Anna Visser", "Bram Bakker", "Johan de Vries", "Vera Jansen"}},
		{"upper case", "", "V", []string{"Anna Visser", "Bram Bakker", "Johan de Vries", "Vera Jansen"}},
		{"the particle itself", "", "d", []string{"Johan de Vries"}},
		{"two letters as two words", "", "j v", []string{"Johan de Vries", "Vera Jansen"}},
		{"a letter and a word", "", "v jans", []string{"Vera Jansen"}},
		{"in an organization", "org-1", "v", []string{"Anna Visser", "Bram Bakker", "Johan de Vries", "Vera Jansen"}},
		{"no word starts with it", "", "q", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := search(t, f, tc.org, tc.query); !slices.Equal(got, tc.want) {
				t.Errorf("search %q in %q = %q, want %q", tc.query, tc.org, got, tc.want)
			}
		})
	}
}

// The letter items follow the user: a rename that drops the user's last
// word starting with v drops it from "v", and a deleted user is found by
// no letter.
func TestOneLetterSearchFollowsUserWrites(t *testing.T) {
	f := lettersStore(t)
	u, err := f.GetUser(ctx(t), 2)
	must(t, err)
	u.GivenName, u.Name, u.Email = "Mira", "Mira Jansen", "mira@uni.example.org"
	must(t, f.UpdateUser(ctx(t), u, nil))
	if got := search(t, f, "", "v"); !slices.Equal(got, []string{"Anna Visser", "Bram Bakker", "Johan de Vries"}) {
		t.Errorf("v after the rename: %q", got)
	}
	if got := search(t, f, "", "m"); !slices.Equal(got, []string{"Mira Jansen"}) {
		t.Errorf("m after the rename: %q", got)
	}

	johan, err := f.GetUser(ctx(t), 1)
	must(t, err)
	ur, err := f.GetUserRole(ctx(t), 1, 1)
	must(t, err)
	must(t, f.ApplyRemoval(ctx(t), domain.Removal{UserRoles: []domain.UserRole{ur}, DeleteUser: &johan}))
	if got := search(t, f, "", "j"); !slices.Equal(got, []string{"Mira Jansen"}) {
		t.Errorf("j after Johan's deletion: %q", got)
	}
}

// A letter that starts the words of more people than the search bound is
// answered as a common word is: the query must be narrowed, rather than a
// page and total of some of them.
func TestOneLetterSearchIsBounded(t *testing.T) {
	f := lettersStore(t)
	f.SetSearchBound(3)
	if _, err := f.SearchUsers(ctx(t), domain.UserSearch{Page: domain.PageRequest{Size: 10, Query: "v"}}); domain.KindOf(err) != domain.KindInvalid {
		t.Errorf("v names 4 people with a bound of 3: %v, want a request to narrow the query", err)
	}
	if got := search(t, f, "", "v jans"); !slices.Equal(got, []string{"Vera Jansen"}) {
		t.Errorf("v with a selective word: %q", got)
	}
}
