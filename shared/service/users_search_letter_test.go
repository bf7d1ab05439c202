package service_test

import (
	"context"
	"slices"
	"sort"
	"testing"

	"github.com/edu-invite/invite/shared/auth"
	"github.com/edu-invite/invite/shared/domain"
)

// U1 and U2 as documented: a one-letter query matches the prefixes of
// words, so "v" finds "de Vries" (a family name after a particle), not
// only names starting with v, for a super user and for an organization's
// caller alike.
func TestOneLetterUserSearchMatchesWordPrefixes(t *testing.T) {
	s, _ := newService(t)
	ctx := context.Background()
	role, err := s.CreateRole(ctx, root, wikiRole("Letters"))
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []struct{ sub, given, family string }{
		{"johan", "Johan", "de Vries"}, {"vera", "Vera", "Jansen"}, {"carla", "Carla", "Smit"},
	} {
		acceptInto(t, s, auth.Person{Sub: "sub-" + p.sub, Email: p.sub + "@uni.example.org", GivenName: p.given, FamilyName: p.family,
			Name: p.given + " " + p.family}, []int64{role.ID})
	}
	orgToken := &auth.Principal{Kind: auth.KindAPIToken, OrganizationGUID: "org-test", Name: "org-token"}
	for _, tc := range []struct {
		who   string
		p     *auth.Principal
		query string
		want  []string
	}{
		{"super user", root, "v", []string{"Johan de Vries", "Vera Jansen"}},
		{"super user", root, "d", []string{"Johan de Vries"}},
		{"organization", orgToken, "v", []string{"Johan de Vries", "Vera Jansen"}},
		{"organization", orgToken, "s", []string{"Carla Smit"}},
	} {
		t.Run(tc.who+" "+tc.query, func(t *testing.T) {
			page, err := s.SearchUsers(ctx, tc.p, domain.PageRequest{Query: tc.query, Size: 20})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, u := range page.Items {
				got = append(got, u.User.Name)
			}
			sort.Strings(got)
			if !slices.Equal(got, tc.want) || page.Total != int64(len(tc.want)) {
				t.Errorf("search %q = %q (total %d), want %q", tc.query, got, page.Total, tc.want)
			}
		})
	}
}
