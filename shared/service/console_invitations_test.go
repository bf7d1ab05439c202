package service_test

import (
	"context"
	"testing"
	"time"

	"github.com/edu-invite/invite/shared/auth"
	"github.com/edu-invite/invite/shared/domain"
	"github.com/edu-invite/invite/shared/service"
)

// TestConsoleInvitationAndAdminQueriesDenyByDefault: the console's
// invitation history and application manager list answer only whom the
// API would answer, per kind of caller; institution admins always get their
// own organization.
func TestConsoleInvitationAndAdminQueriesDenyByDefault(t *testing.T) {
	s, _ := newService(t)
	ctx := context.Background()
	role, err := s.CreateRole(ctx, root, wikiRole("History"))
	if err != nil {
		t.Fatal(err)
	}
	future := now.Add(time.Hour)
	if _, err := s.Invite(ctx, root, service.InvitationInput{IntendedAuthority: "GUEST", Invites: []string{"h@example.org"}, RoleIDs: []int64{role.ID},
		ExpiryDate: &future, SuppressSendingEmails: true}); err != nil {
		t.Fatal(err)
	}
	person := func(org string, admin bool, ms map[int64]domain.Authority) *auth.Principal {
		return &auth.Principal{Kind: auth.KindPerson, OrganizationGUID: org, Memberships: ms,
			User: &domain.User{ID: 99, InstitutionAdmin: admin, OrganizationGUID: org}}
	}
	callers := []struct {
		name            string
		p               *auth.Principal
		history, admins bool
	}{
		{"anonymous", nil, false, false},
		{"guest", person("", false, map[int64]domain.Authority{role.ID: domain.Guest}), false, false},
		{"inviter", person("", false, map[int64]domain.Authority{role.ID: domain.Inviter}), true, false},
		{"manager", person("", false, map[int64]domain.Authority{role.ID: domain.Manager}), true, false},
		// allowed, but for their own organization whatever they name (the
		// browser test TestConsoleAdministrators shows they see none of org-test)
		{"admin of another organization", person("org-other", true, nil), false, true},
		{"admin of the organization", person("org-test", true, nil), true, true},
		{"super user", root, true, true},
	}
	for _, c := range callers {
		invs, err := s.RoleInvitationHistory(ctx, c.p, role.ID)
		if (err == nil) != c.history || (c.history && len(invs) != 1) {
			t.Errorf("%s: invitation history = %d invitations, %v; want allowed %v", c.name, len(invs), err, c.history)
		}
		_, err = s.OrganizationApplicationManagers(ctx, c.p, "org-test")
		if (err == nil) != c.admins {
			t.Errorf("%s: application managers of org-test: %v; want allowed %v", c.name, err, c.admins)
		}
		if got := service.MayAdministerOrganization(c.p); got != (c.admins && c.p.Kind == auth.KindPerson || c.p == root) {
			t.Errorf("%s: MayAdministerOrganization = %v", c.name, got)
		}
	}
}
