package auth

import (
	"testing"

	"github.com/edu-invite/invite/shared/domain"
)

func TestCanSeeUser(t *testing.T) {
	target := domain.User{ID: 7}
	roleA := domain.Role{ID: 1, OrganizationGUID: "org-a"}
	roleB := domain.Role{ID: 2, OrganizationGUID: "org-b"}
	admin := &domain.User{ID: 1, InstitutionAdmin: true, OrganizationGUID: "org-a"}
	plain := &domain.User{ID: 2}
	for _, tc := range []struct {
		name   string
		p      *Principal
		target domain.User
		roles  []domain.Role
		want   bool
	}{
		{"anonymous", nil, target, []domain.Role{roleA}, false},
		{"super user", &Principal{Kind: KindPerson, SuperUser: true, User: plain}, target, nil, true},
		{"self", &Principal{Kind: KindPerson, User: &domain.User{ID: 7}}, target, nil, true},
		{"institution admin, role of own org", &Principal{Kind: KindPerson, User: admin, OrganizationGUID: "org-a"}, target, []domain.Role{roleB, roleA}, true},
		{"institution admin, role of other org", &Principal{Kind: KindPerson, User: admin, OrganizationGUID: "org-a"}, target, []domain.Role{roleB}, false},
		{"institution admin, user of own org", &Principal{Kind: KindPerson, User: admin, OrganizationGUID: "org-a"}, domain.User{ID: 8, OrganizationGUID: "org-a"}, nil, true},
		{"org token, role of own org", &Principal{Kind: KindAPIToken, OrganizationGUID: "org-a"}, target, []domain.Role{roleA}, true},
		{"org token, other org", &Principal{Kind: KindAPIToken, OrganizationGUID: "org-a"}, target, []domain.Role{roleB}, false},
		{"person with organization but no admin", &Principal{Kind: KindPerson, User: plain, OrganizationGUID: "org-a"}, target, []domain.Role{roleA}, false},
		{"manager of a held role", &Principal{Kind: KindPerson, User: plain, Memberships: map[int64]domain.Authority{1: domain.Manager}}, target, []domain.Role{roleA}, true},
		{"inviter of a held role", &Principal{Kind: KindPerson, User: plain, Memberships: map[int64]domain.Authority{1: domain.Inviter}}, target, []domain.Role{roleA}, false},
		{"manager of another role", &Principal{Kind: KindPerson, User: plain, Memberships: map[int64]domain.Authority{2: domain.Manager}}, target, []domain.Role{roleA}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.p.CanSeeUser(tc.target, tc.roles); got != tc.want {
				t.Errorf("CanSeeUser = %v, want %v", got, tc.want)
			}
		})
	}
}

func TestUserSearchScope(t *testing.T) {
	for _, tc := range []struct {
		name    string
		p       *Principal
		org     string
		all, ok bool
	}{
		{"anonymous", nil, "", false, false},
		{"super token", &Principal{Kind: KindAPIToken, SuperUser: true}, "", true, true},
		{"institution admin", &Principal{Kind: KindPerson, OrganizationGUID: "org-a", User: &domain.User{InstitutionAdmin: true, OrganizationGUID: "org-a"}}, "org-a", false, true},
		{"org token", &Principal{Kind: KindAPIToken, OrganizationGUID: "org-a"}, "org-a", false, true},
		{"manager", &Principal{Kind: KindPerson, User: &domain.User{}, Memberships: map[int64]domain.Authority{1: domain.Manager}}, "", false, false},
		{"organization without admin flag", &Principal{Kind: KindPerson, OrganizationGUID: "org-a", User: &domain.User{OrganizationGUID: "org-a"}}, "", false, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			org, all, ok := tc.p.UserSearchScope()
			if org != tc.org || all != tc.all || ok != tc.ok {
				t.Errorf("UserSearchScope = %q %v %v, want %q %v %v", org, all, ok, tc.org, tc.all, tc.ok)
			}
		})
	}
}
