package service_test

import (
	"context"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/edu-invite/invite/shared/domain"
	"github.com/edu-invite/invite/shared/dynamo"
	"github.com/edu-invite/invite/shared/service"
	"github.com/edu-invite/invite/shared/testkit"
)

// TestChangesAreAudited: every change of a role, an invitation, the
// registry and an organization leaves its entry, with who made it and
// what it was about; the role's entries in the role's audit, the others
// in the audit of all roles.
func TestChangesAreAudited(t *testing.T) {
	clock := now
	s, _ := testkit.NewService(t, func() time.Time { return clock })
	tick := func() { clock = clock.Add(time.Second) } // entries in order
	ctx := context.Background()
	s.RegistryAdmin = &service.RegistryAdmin{Store: s.Store.(*dynamo.Store)}

	role, err := s.CreateRole(ctx, root, wikiRole("Editors"))
	if err != nil {
		t.Fatal(err)
	}
	tick()
	step := func(name string, err error) {
		t.Helper()
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		tick()
	}
	_, err = s.UpdateRole(ctx, root, role.ID, wikiRole("Authors"))
	step("rename", err)
	moved := wikiRole("Authors")
	moved.OrganizationGUID = "org-two"
	_, err = s.UpdateRole(ctx, root, role.ID, moved)
	step("move", err)
	described := moved
	described.Description = "People who write"
	_, err = s.UpdateRole(ctx, root, role.ID, described)
	step("describe", err)
	// Saved again unchanged: nothing happened, so nothing is recorded.
	before, _ := s.Store.GetRole(ctx, role.ID)
	again, err := s.UpdateRole(ctx, root, role.ID, described)
	step("save unchanged", err)
	if after, _ := s.Store.GetRole(ctx, role.ID); after.Version != before.Version || again.Version != before.Version || again.Description != described.Description {
		t.Errorf("an unchanged save wrote the role: version %d → %d (answered %d)", before.Version, after.Version, again.Version)
	}
	invID, _ := testkit.Invite(t, s, root, "guest@example.org", role.ID, domain.Guest, now.Add(14*24*time.Hour))
	tick()
	_, err = s.ResendInvitation(ctx, root, invID)
	step("resend", err)
	step("withdraw", s.DeleteInvitation(ctx, root, invID))
	_, err = s.CreateOrganization(ctx, root, service.OrganizationInput{GUID: "org-two", Name: "Second University"})
	step("name organization", err)
	_, err = s.RenameOrganization(ctx, root, "org-two", service.OrganizationInput{Name: "Second College", NameNL: "Tweede Hogeschool"})
	step("rename organization", err)
	_, err = s.CreateApplication(ctx, root, service.ApplicationView{ManageID: "new-app", ManageType: "SAML20_SP", Name: "New",
		LandingPage: "https://new.example.org", OrganizationGUID: "org-two"})
	step("add application", err)
	step("remove application", s.DeleteApplication(ctx, root, "new-app"))
	step("delete role", s.DeleteRole(ctx, root, role.ID))

	type seen struct {
		action           domain.AuditAction
		subject, by, who string
	}
	read := func(roleID int64) []seen {
		page, err := s.SearchAuditFiltered(ctx, root, domain.AuditFilter{RoleID: roleID}, domain.PageRequest{Size: 100, Sort: "createdAt"})
		if err != nil {
			t.Fatal(err)
		}
		var out []seen
		for _, e := range page.Items {
			if e.CreatedBy != "root" || e.CreatedAt.IsZero() || e.ID == 0 {
				t.Errorf("%s entry without its maker, time or id: %+v", e.Action, e)
			}
			out = append(out, seen{e.Action, e.Subject, e.CreatedBy, e.UserEmail})
		}
		return out
	}
	inv := strconv.FormatInt(invID, 10)
	wantRole := []seen{
		{domain.AuditRoleCreated, "", "root", ""},
		{domain.AuditRoleRenamed, "Editors", "root", ""},
		{domain.AuditRoleMoved, "org-test → org-two", "root", ""},
		{domain.AuditRoleUpdated, "", "root", ""},
		{domain.AuditInvitationCreated, inv, "root", "guest@example.org"},
		{domain.AuditInvitationResent, inv, "root", "guest@example.org"},
		{domain.AuditInvitationDeleted, inv, "root", "guest@example.org"},
		{domain.AuditRoleDeleted, "", "root", ""},
	}
	assertSeen(t, "role's audit", read(role.ID), wantRole)
	wantAll := append(append([]seen{}, wantRole[:7]...),
		seen{domain.AuditOrganizationCreated, "org-two: Second University", "root", ""},
		seen{domain.AuditOrganizationRenamed, "org-two: Second College / Tweede Hogeschool", "root", ""},
		seen{domain.AuditApplicationCreated, "new-app: landingPage, manageId, manageType, name, organizationGUID, provisionings", "root", ""},
		seen{domain.AuditApplicationDeleted, "new-app", "root", ""},
		wantRole[7])
	assertSeen(t, "audit of all roles", read(0), wantAll)
}

func assertSeen[T comparable](t *testing.T, what string, got, want []T) {
	t.Helper()
	if len(got) != len(want) {
		t.Errorf("%s: %d entries, want %d:\n got %+v\nwant %+v", what, len(got), len(want), got, want)
		return
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("%s entry %d = %+v, want %+v", what, i, got[i], want[i])
		}
	}
}

// TestCRMInvitationsAreAudited: a CRM's invitation, its sending again and
// its withdrawal leave their entries in the role's audit, naming the role.
func TestCRMInvitationsAreAudited(t *testing.T) {
	s, _, role := newCRMService(t)
	ctx := context.Background()
	if _, err := s.CRMProfile(ctx, crmCaller, crmInput("c-1", false)); err != nil {
		t.Fatal(err)
	}
	if _, err := s.CRMResendInvitation(ctx, crmCaller, "org-crm", "c-1"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.CRMDeleteProfile(ctx, crmCaller, "org-crm", "c-1"); err != nil {
		t.Fatal(err)
	}
	page, err := s.SearchAuditFiltered(ctx, root, domain.AuditFilter{RoleID: role.ID, Actions: []domain.AuditAction{
		domain.AuditInvitationCreated, domain.AuditInvitationResent, domain.AuditInvitationDeleted}}, domain.PageRequest{Size: 10, Sort: "id"})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range page.Items {
		if e.CreatedBy != crmCaller.Name || e.RoleName != role.Name || !strings.EqualFold(e.UserEmail, "jane@example.com") {
			t.Errorf("entry %+v", e)
		}
		got = append(got, string(e.Action))
	}
	if want := "INVITATION_CREATED INVITATION_RESENT INVITATION_DELETED"; strings.Join(got, " ") != want {
		t.Errorf("actions %v, want %s", got, want)
	}
}
