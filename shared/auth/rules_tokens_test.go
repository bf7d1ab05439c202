package auth

import (
	"testing"

	"github.com/edu-invite/invite/shared/domain"
)

func TestTokenAndAuditRules(t *testing.T) {
	super := &Principal{Kind: KindPerson, SuperUser: true, User: &domain.User{SuperUser: true}}
	superToken := &Principal{Kind: KindAPIToken, SuperUser: true}
	admin := &Principal{Kind: KindPerson, OrganizationGUID: "org-a", User: &domain.User{InstitutionAdmin: true, OrganizationGUID: "org-a"}}
	orgToken := &Principal{Kind: KindAPIToken, OrganizationGUID: "org-a"}
	member := &Principal{Kind: KindPerson, OrganizationGUID: "org-a", User: &domain.User{OrganizationGUID: "org-a"},
		Memberships: map[int64]domain.Authority{1: domain.Manager, 2: domain.Inviter}}

	orgA := domain.APIToken{ID: 1, OrganizationGUID: "org-a"}
	orgB := domain.APIToken{ID: 2, OrganizationGUID: "org-b"}
	superTok := domain.APIToken{ID: 3, SuperUserToken: true, OrganizationGUID: "org-a"}
	roleA1 := &domain.Role{ID: 1, OrganizationGUID: "org-a"}
	roleA2 := &domain.Role{ID: 2, OrganizationGUID: "org-a"}
	roleB := &domain.Role{ID: 3, OrganizationGUID: "org-b"}

	tests := []struct {
		name       string
		p          *Principal
		administer bool
		manage     [3]bool // orgA, orgB, superTok
		audit      [4]bool // no role, roleA1, roleA2, roleB
	}{
		{"super user", super, true, [3]bool{true, true, true}, [4]bool{true, true, true, true}},
		{"super-user token", superToken, true, [3]bool{true, true, true}, [4]bool{true, true, true, true}},
		{"institution admin", admin, true, [3]bool{true, false, false}, [4]bool{false, true, true, false}},
		{"organization token", orgToken, false, [3]bool{false, false, false}, [4]bool{false, true, true, false}},
		{"manager of role 1, inviter of role 2", member, false, [3]bool{false, false, false}, [4]bool{false, true, false, false}},
		{"anonymous", nil, false, [3]bool{}, [4]bool{}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.p.CanAdministerTokens(); got != tc.administer {
				t.Errorf("CanAdministerTokens = %v, want %v", got, tc.administer)
			}
			for i, tok := range []domain.APIToken{orgA, orgB, superTok} {
				if got := tc.p.CanManageToken(tok); got != tc.manage[i] {
					t.Errorf("CanManageToken(%+v) = %v, want %v", tok, got, tc.manage[i])
				}
			}
			for i, r := range []*domain.Role{nil, roleA1, roleA2, roleB} {
				if got := tc.p.CanSearchAudit(r); got != tc.audit[i] {
					t.Errorf("CanSearchAudit(%v) = %v, want %v", r, got, tc.audit[i])
				}
			}
		})
	}
}
