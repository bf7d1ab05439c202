package dynamo_test

import (
	"slices"
	"testing"

	"github.com/edu-invite/invite/shared/domain"
)

// A one-letter query in a small organization whose letter names more
// people than the search bound (the organization is then read whole)
// matches word prefixes as the letter items do: "v" finds "de Vries", not
// only names starting with v, and no one outside the organization.
func TestOneLetterSearchOfASmallOrganizationMatchesWordPrefixes(t *testing.T) {
	f := lettersStore(t)
	r := role(2, "Two")
	r.OrganizationGUID = "org-2"
	must(t, f.CreateRole(ctx(t), r, nil))
	for _, uid := range []int64{1, 5} { // Johan de Vries, Carla Smit
		u, err := f.GetUser(ctx(t), uid)
		must(t, err)
		must(t, f.SaveAcceptance(ctx(t), domain.Acceptance{User: u, NewUserRoles: []domain.UserRole{membership(100+uid, uid, 2)}}))
	}
	f.SetSearchBound(3) // v names 4 people; org-2 has 2
	for _, tc := range []struct {
		query string
		want  []string
	}{
		{"v", []string{"Johan de Vries"}},
		{"V", []string{"Johan de Vries"}},
		{"d", []string{"Johan de Vries"}},
		{"s", []string{"Carla Smit"}},
		{"j v", []string{"Johan de Vries"}},
		{"a", nil}, // Anna and Bram have words starting with a but are elsewhere
	} {
		t.Run(tc.query, func(t *testing.T) {
			if got := search(t, f, "org-2", tc.query); !slices.Equal(got, tc.want) {
				t.Errorf("search %q in org-2 = %q, want %q", tc.query, got, tc.want)
			}
		})
	}
}
