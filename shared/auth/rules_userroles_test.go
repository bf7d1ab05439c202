package auth

import (
	"testing"

	"github.com/edu-invite/invite/shared/domain"
)

func TestUserRoleRules(t *testing.T) {
	role := domain.Role{ID: 7, OrganizationGUID: "org-a"}
	member := func(userID int64, a domain.Authority) *Principal {
		return &Principal{Kind: KindPerson, User: &domain.User{ID: userID}, Memberships: map[int64]domain.Authority{7: a}}
	}
	guestMembership := domain.UserRole{UserID: 50, RoleID: 7, Authority: domain.Guest}
	managerMembership := domain.UserRole{UserID: 51, RoleID: 7, Authority: domain.Manager}
	tests := []struct {
		name                       string
		p                          *Principal
		see, provision             bool
		removeGuest, removeManager bool
	}{
		{"anonymous", nil, false, false, false, false},
		{"super user", &Principal{SuperUser: true, Kind: KindPerson, User: &domain.User{ID: 1, SuperUser: true}}, true, true, true, true},
		{"super token", &Principal{Kind: KindAPIToken, SuperUser: true}, true, true, true, true},
		{"org token", &Principal{Kind: KindAPIToken, OrganizationGUID: "org-a"}, true, true, true, true},
		{"other org token", &Principal{Kind: KindAPIToken, OrganizationGUID: "org-b"}, false, true, false, false},
		{"institution admin", &Principal{Kind: KindPerson, OrganizationGUID: "org-a", User: &domain.User{ID: 2, InstitutionAdmin: true}}, true, true, true, true},
		{"institution admin elsewhere", &Principal{Kind: KindPerson, OrganizationGUID: "org-b", User: &domain.User{ID: 2, InstitutionAdmin: true}}, false, true, false, false},
		{"admin flag without organization", &Principal{Kind: KindPerson, User: &domain.User{ID: 2, InstitutionAdmin: true}}, false, false, false, false},
		{"manager", member(3, domain.Manager), true, false, true, true},
		{"inviter", member(4, domain.Inviter), true, false, true, false},
		{"guest", member(5, domain.Guest), false, false, false, false},
		{"the guest itself", member(50, domain.Guest), false, false, true, false},
		{"the manager itself", member(51, domain.Manager), true, false, true, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.p.CanSeeMembers(role); got != tc.see {
				t.Errorf("CanSeeMembers = %v, want %v", got, tc.see)
			}
			if got := tc.p.CanProvisionUsers(); got != tc.provision {
				t.Errorf("CanProvisionUsers = %v, want %v", got, tc.provision)
			}
			if got := tc.p.CanRemoveMembership(role, guestMembership, domain.Guest); got != tc.removeGuest {
				t.Errorf("CanRemoveMembership(guest) = %v, want %v", got, tc.removeGuest)
			}
			if got := tc.p.CanRemoveMembership(role, managerMembership, domain.Manager); got != tc.removeManager {
				t.Errorf("CanRemoveMembership(manager) = %v, want %v", got, tc.removeManager)
			}
		})
	}
}
