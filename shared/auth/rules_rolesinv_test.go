package auth

import (
	"testing"

	"github.com/edu-invite/invite/shared/domain"
)

func TestRoleListingAndInvitationRules(t *testing.T) {
	roleA := domain.Role{ID: 7, OrganizationGUID: "org-a"}
	roleB := domain.Role{ID: 8, OrganizationGUID: "org-b"}
	guestInv := domain.Invitation{IntendedAuthority: domain.Guest, RoleIDs: []int64{7}}
	managerInv := domain.Invitation{IntendedAuthority: domain.Manager, RoleIDs: []int64{7}}
	adminInv := domain.Invitation{IntendedAuthority: domain.InstitutionAdmin, OrganizationGUID: "org-a"}
	member := func(a domain.Authority) *Principal {
		return &Principal{Kind: KindPerson, User: &domain.User{ID: 1}, Memberships: map[int64]domain.Authority{7: a}}
	}
	admin := &Principal{Kind: KindPerson, OrganizationGUID: "org-a", User: &domain.User{InstitutionAdmin: true},
		Memberships: map[int64]domain.Authority{8: domain.Inviter}}
	tests := []struct {
		name                     string
		p                        *Principal
		scope                    RoleListScope
		seeA, seeB, changeApps   bool
		guestInv, managerInv, ad bool
	}{
		{"anonymous", nil, RolesNone, false, false, false, false, false, false},
		{"super user", &Principal{SuperUser: true}, RolesAll, true, true, true, true, true, true},
		{"org token", &Principal{Kind: KindAPIToken, OrganizationGUID: "org-a"}, RolesOfOrganization, true, false, true, true, true, true},
		{"other org token", &Principal{Kind: KindAPIToken, OrganizationGUID: "org-b"}, RolesOfOrganization, false, true, false, false, false, false},
		{"institution admin, inviter elsewhere", admin, RolesOfOrganization, true, true, true, true, true, true},
		{"application manager", member(domain.ApplicationManager), RolesHeld, true, false, true, true, true, false},
		{"manager", member(domain.Manager), RolesHeld, true, false, false, true, true, false},
		{"inviter", member(domain.Inviter), RolesHeld, true, false, false, true, false, false},
		{"guest", member(domain.Guest), RolesNone, false, false, false, false, false, false},
		{"person without roles", &Principal{Kind: KindPerson, User: &domain.User{}}, RolesNone, false, false, false, false, false, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := RoleListScopeOf(tc.p); got != tc.scope {
				t.Errorf("RoleListScopeOf = %v, want %v", got, tc.scope)
			}
			if got := CanSeeRole(tc.p, roleA); got != tc.seeA {
				t.Errorf("CanSeeRole(A) = %v, want %v", got, tc.seeA)
			}
			if got := CanSeeRole(tc.p, roleB); got != tc.seeB {
				t.Errorf("CanSeeRole(B) = %v, want %v", got, tc.seeB)
			}
			if got := MayChangeRoleApplications(tc.p, roleA); got != tc.changeApps {
				t.Errorf("MayChangeRoleApplications(A) = %v, want %v", got, tc.changeApps)
			}
			if got := CanManageInvitation(tc.p, guestInv, []domain.Role{roleA}); got != tc.guestInv {
				t.Errorf("CanManageInvitation(GUEST to A) = %v, want %v", got, tc.guestInv)
			}
			if got := CanManageInvitation(tc.p, managerInv, []domain.Role{roleA}); got != tc.managerInv {
				t.Errorf("CanManageInvitation(MANAGER to A) = %v, want %v", got, tc.managerInv)
			}
			if got := CanManageInvitation(tc.p, adminInv, nil); got != tc.ad {
				t.Errorf("CanManageInvitation(INSTITUTION_ADMIN of org-a, no roles) = %v, want %v", got, tc.ad)
			}
		})
	}
	// An invitation to two roles needs the right on both.
	if CanManageInvitation(member(domain.Manager), guestInv, []domain.Role{roleA, roleB}) {
		t.Error("a manager of one role may manage an invitation to two")
	}
}
