package auth

import (
	"testing"

	"github.com/edu-invite/invite/shared/domain"
)

// TestOrganizationRules: every kind of caller sees the organizations of
// its scope, and only super users name them.
func TestOrganizationRules(t *testing.T) {
	for _, c := range []struct {
		name    string
		p       *Principal
		own     string
		all, ok bool
		names   bool
	}{
		{"nobody", nil, "", false, false, false},
		{"super user", &Principal{Kind: KindPerson, SuperUser: true}, "", true, true, true},
		{"super-user token", &Principal{Kind: KindAPIToken, SuperUser: true}, "", true, true, true},
		{"institution admin", &Principal{Kind: KindPerson, OrganizationGUID: "org-a", User: &domain.User{InstitutionAdmin: true, OrganizationGUID: "org-a"}}, "org-a", false, true, false},
		{"organization token", &Principal{Kind: KindAPIToken, OrganizationGUID: "org-a"}, "org-a", false, true, false},
		{"person of an organization, not its admin", &Principal{Kind: KindPerson, OrganizationGUID: "org-a", User: &domain.User{OrganizationGUID: "org-a"}}, "", false, false, false},
		{"guest", &Principal{Kind: KindPerson, User: &domain.User{}}, "", false, false, false},
		{"token without an organization", &Principal{Kind: KindAPIToken}, "", false, false, false},
	} {
		own, all, ok := c.p.OrganizationScope()
		if own != c.own || all != c.all || ok != c.ok {
			t.Errorf("%s: scope (%q, %v, %v), want (%q, %v, %v)", c.name, own, all, ok, c.own, c.all, c.ok)
		}
		if got := c.p.CanNameOrganizations(); got != c.names {
			t.Errorf("%s names organizations: %v, want %v", c.name, got, c.names)
		}
	}
}
