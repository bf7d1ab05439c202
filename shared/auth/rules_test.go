package auth

import (
	"testing"

	"github.com/edu-invite/invite/shared/domain"
)

func TestRoleRules(t *testing.T) {
	role := domain.Role{ID: 7, OrganizationGUID: "org-a"}
	member := func(a domain.Authority) *Principal {
		return &Principal{Kind: KindPerson, User: &domain.User{ID: 1}, Memberships: map[int64]domain.Authority{7: a}}
	}
	tests := []struct {
		name                 string
		p                    *Principal
		manage, inviteGuest  bool
		inviteManager, inOrg bool
	}{
		{"anonymous", nil, false, false, false, false},
		{"super user", &Principal{SuperUser: true}, true, true, true, true},
		{"org token", &Principal{Kind: KindAPIToken, OrganizationGUID: "org-a"}, true, true, true, true},
		{"other org token", &Principal{Kind: KindAPIToken, OrganizationGUID: "org-b"}, false, false, false, false},
		{"institution admin", &Principal{Kind: KindPerson, OrganizationGUID: "org-a", User: &domain.User{InstitutionAdmin: true}}, true, true, true, true},
		{"person of the org without role", &Principal{Kind: KindPerson, OrganizationGUID: "org-a", User: &domain.User{}}, false, false, false, false},
		{"manager", member(domain.Manager), true, true, true, false},
		{"inviter", member(domain.Inviter), false, true, false, false},
		{"guest", member(domain.Guest), false, false, false, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.p.CanManageRole(role); got != tc.manage {
				t.Errorf("CanManageRole = %v, want %v", got, tc.manage)
			}
			if got := tc.p.CanInvite(role, domain.Guest); got != tc.inviteGuest {
				t.Errorf("CanInvite(GUEST) = %v, want %v", got, tc.inviteGuest)
			}
			if got := tc.p.CanInvite(role, domain.Manager); got != tc.inviteManager {
				t.Errorf("CanInvite(MANAGER) = %v, want %v", got, tc.inviteManager)
			}
			if got := tc.p.CanCreateRoleIn("org-a"); got != tc.inOrg {
				t.Errorf("CanCreateRoleIn = %v, want %v", got, tc.inOrg)
			}
		})
	}
}

func TestOnlySuperUsersGrantInstitutionAdmin(t *testing.T) {
	role := domain.Role{ID: 7, OrganizationGUID: "org-a"}
	if (&Principal{Kind: KindAPIToken, OrganizationGUID: "org-a"}).CanInvite(role, domain.InstitutionAdmin) {
		t.Error("an organization token granted INSTITUTION_ADMIN")
	}
	if !(&Principal{SuperUser: true}).CanInvite(role, domain.InstitutionAdmin) {
		t.Error("a super user could not grant INSTITUTION_ADMIN")
	}
	if (&Principal{SuperUser: true}).CanInvite(role, domain.Authority("OWNER")) {
		t.Error("an unknown authority was accepted")
	}
}
