package auth

import (
	"testing"
	"time"

	"github.com/edu-invite/invite/shared/domain"
)

func roleWith(id int64, org string, apps ...string) domain.Role {
	r := domain.Role{ID: id, OrganizationGUID: org}
	for _, a := range apps {
		r.ApplicationUsages = append(r.ApplicationUsages, domain.ApplicationUsage{Application: domain.Application{ManageID: a}})
	}
	return r
}

// The shared-application rule opens a role to the managers of another
// role only within one organization: a platform application used by roles
// of two organizations opens nothing across them.
func TestSharedApplicationStaysInTheOrganization(t *testing.T) {
	managed := roleWith(1, "org-a", "wiki", "lms")
	sameOrg := roleWith(2, "org-a", "wiki")
	otherOrg := roleWith(3, "org-b", "lms")
	noOrg := roleWith(4, "", "lms")
	unrelated := roleWith(5, "org-a", "drive")
	for _, holder := range []domain.Authority{domain.Manager, domain.ApplicationManager} {
		p := &Principal{Kind: KindPerson, User: &domain.User{ID: 9}, Memberships: map[int64]domain.Authority{1: holder}}
		for _, tc := range []struct {
			name string
			role domain.Role
			want domain.Authority
		}{
			{"same organization, shared application", sameOrg, domain.Inviter},
			{"other organization, shared application", otherOrg, ""},
			{"role without organization", noOrg, ""},
			{"same organization, no shared application", unrelated, ""},
		} {
			if got := GrantingAuthority(p, tc.role, []domain.Role{managed}); got != tc.want {
				t.Errorf("%s of role 1, %s: granting authority %q, want %q", holder, tc.name, got, tc.want)
			}
			if got := MayGrant(p, tc.role, domain.Guest, []domain.Role{managed}); got != (tc.want != "") {
				t.Errorf("%s of role 1, %s: may invite a guest = %v", holder, tc.name, got)
			}
		}
	}
}

// A caller changes an end date only where it could grant the membership's
// authority; nobody lengthens their own membership.
func TestEndDateRules(t *testing.T) {
	role := roleWith(7, "org-a", "wiki")
	member := func(id int64, a domain.Authority) *Principal {
		return &Principal{Kind: KindPerson, User: &domain.User{ID: id}, Memberships: map[int64]domain.Authority{7: a}}
	}
	ur := func(user int64, a domain.Authority) domain.UserRole {
		return domain.UserRole{UserID: user, RoleID: 7, Authority: a}
	}
	for _, tc := range []struct {
		name   string
		p      *Principal
		target domain.UserRole
		want   bool
	}{
		{"manager, an application manager's", member(1, domain.Manager), ur(2, domain.ApplicationManager), false},
		{"manager, another manager's", member(1, domain.Manager), ur(2, domain.Manager), true},
		{"manager, a guest's", member(1, domain.Manager), ur(2, domain.Guest), true},
		{"inviter, a guest's", member(1, domain.Inviter), ur(2, domain.Guest), true},
		{"inviter, another inviter's", member(1, domain.Inviter), ur(2, domain.Inviter), false},
		{"application manager, an application manager's", member(1, domain.ApplicationManager), ur(2, domain.ApplicationManager), false},
		{"institution admin, an application manager's", &Principal{Kind: KindPerson, OrganizationGUID: "org-a", User: &domain.User{ID: 1, InstitutionAdmin: true}}, ur(2, domain.ApplicationManager), true},
		{"institution admin of another organization", &Principal{Kind: KindPerson, OrganizationGUID: "org-b", User: &domain.User{ID: 1, InstitutionAdmin: true}}, ur(2, domain.Guest), false},
		{"organization token of another organization", &Principal{Kind: KindAPIToken, OrganizationGUID: "org-b"}, ur(2, domain.Guest), false},
		{"machine caller of another organization", &Principal{Kind: KindMachine, OrganizationGUID: "org-b"}, ur(2, domain.Guest), false},
		{"guest, their own", member(2, domain.Guest), ur(2, domain.Guest), false},
	} {
		if got := tc.p.CanChangeEndDate(role, tc.target); got != tc.want {
			t.Errorf("%s: CanChangeEndDate = %v, want %v", tc.name, got, tc.want)
		}
	}

	end := time.Date(2027, 1, 1, 0, 0, 0, 0, time.UTC)
	later, earlier := end.AddDate(0, 1, 0), end.AddDate(0, -1, 0)
	self := member(1, domain.Manager)
	own := domain.UserRole{UserID: 1, RoleID: 7, Authority: domain.Manager, EndDate: &end}
	endless := domain.UserRole{UserID: 1, RoleID: 7, Authority: domain.Manager}
	for _, tc := range []struct {
		name string
		ur   domain.UserRole
		to   *time.Time
		want bool
	}{
		{"later", own, &later, true},
		{"to 9999", own, ptr(time.Date(9999, 12, 31, 0, 0, 0, 0, time.UTC)), true},
		{"no end", own, nil, true},
		{"earlier", own, &earlier, false},
		{"the same", own, &end, false},
		{"an end where there was none", endless, &end, false},
		{"someone else's", domain.UserRole{UserID: 2, EndDate: &end}, &later, false},
	} {
		if got := ExtendsOwnMembership(self, tc.ur, tc.to); got != tc.want {
			t.Errorf("own membership, %s: ExtendsOwnMembership = %v, want %v", tc.name, got, tc.want)
		}
	}
}

func ptr[T any](v T) *T { return &v }

// Machine callers of an organization are bound to it; super users and
// people are not (their rights come from elsewhere).
func TestBoundOrganization(t *testing.T) {
	for _, tc := range []struct {
		p    *Principal
		want string
	}{
		{&Principal{Kind: KindMachine, OrganizationGUID: "org-a"}, "org-a"},
		{&Principal{Kind: KindMachine, SuperUser: true}, ""},
		{&Principal{Kind: KindAPIToken, OrganizationGUID: "org-a"}, "org-a"},
		{&Principal{Kind: KindCRM}, ""},
		{nil, ""},
	} {
		if got := tc.p.BoundOrganization(); got != tc.want {
			t.Errorf("%+v: BoundOrganization = %q, want %q", tc.p, got, tc.want)
		}
	}
}
