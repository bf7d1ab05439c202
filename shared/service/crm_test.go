package service_test

import (
	"context"
	"regexp"
	"strings"
	"testing"

	"github.com/edu-invite/invite/shared/auth"
	"github.com/edu-invite/invite/shared/domain"
	"github.com/edu-invite/invite/shared/mail"
	"github.com/edu-invite/invite/shared/service"
	"github.com/edu-invite/invite/shared/testkit"
)

var crmCaller = &auth.Principal{Kind: auth.KindCRM, Name: "SURF CRM"}

// newCRMService is a service with a mailer and one CRM role "crm-x" of
// organisation org-crm on the wiki application.
func newCRMService(t *testing.T) (*service.Service, *flakyMailer, domain.Role) {
	t.Helper()
	s, _ := newService(t)
	mailer := &flakyMailer{}
	renderer, err := mail.NewRenderer("Invite")
	if err != nil {
		t.Fatal(err)
	}
	s.Mailer, s.Renderer = mailer, renderer
	ctx := context.Background()
	in := wikiRole("Wiki beheer")
	in.OrganizationGUID = "org-crm"
	role, err := s.CreateRole(ctx, root, in)
	if err != nil {
		t.Fatal(err)
	}
	role.CRMRoleID, role.CRMRoleName, role.CRMRoleAbbrevation = "crm-x", "Beheerder", "BVW"
	if err := s.Store.UpdateRole(ctx, role, nil); err != nil {
		t.Fatal(err)
	}
	role.Version++
	return s, mailer, role
}

func crmInput(contactID string, suppress bool) service.CRMProfileInput {
	return service.CRMProfileInput{ContactID: contactID, SuppressInvitation: suppress, Firstname: "Jane", Surname: "Doe", Email: "Jane@Example.COM",
		Organisation: domain.CRMOrganisation{OrganisationID: "org-crm", Name: "CRM Org"}, Roles: []service.CRMRoleInput{{RoleID: "crm-x"}}}
}

var linkPattern = regexp.MustCompile(`https://invite\.example\.org/invitation/accept\?hash=[A-Za-z0-9_%-]+`)

// secretOf takes the invitation secret from the link in an e-mail.
func secretOf(t *testing.T, e domain.Email) string {
	t.Helper()
	link := linkPattern.FindString(e.HTML + e.Text)
	if link == "" {
		t.Fatalf("no invitation link in the e-mail")
	}
	return testkit.SecretOfURL(t, link)
}

func TestCRMInvitationIsMailedUnlessSuppressed(t *testing.T) {
	s, mailer, role := newCRMService(t)
	ctx := context.Background()
	res, err := s.CRMProfile(ctx, crmCaller, crmInput("c-1", false))
	if err != nil || res != service.CRMCreated {
		t.Fatalf("%q %v", res, err)
	}
	if len(mailer.sent) != 1 || mailer.sent[0].To != "Jane@example.com" || !strings.Contains(mailer.sent[0].HTML, role.Name) {
		t.Fatalf("mails %+v", mailer.sent)
	}
	invs, _ := s.Store.ListCRMInvitations(ctx, "org-crm", "c-1")
	if len(invs) != 1 || invs[0].HashDigest != service.HashDigest(secretOf(t, mailer.sent[0])) {
		t.Fatalf("the mailed link does not open the invitation: %+v", invs)
	}

	if _, err := s.CRMProfile(ctx, crmCaller, crmInput("c-2", true)); err != nil {
		t.Fatal(err)
	}
	if len(mailer.sent) != 1 {
		t.Errorf("suppressInvitation sent a mail")
	}
	if invs, _ := s.Store.ListCRMInvitations(ctx, "org-crm", "c-2"); len(invs) != 1 {
		t.Errorf("suppressed invitation not created: %+v", invs)
	}
}

func TestCRMResendMailsANewWorkingLink(t *testing.T) {
	s, mailer, _ := newCRMService(t)
	ctx := context.Background()
	if _, err := s.CRMProfile(ctx, crmCaller, crmInput("c-1", false)); err != nil {
		t.Fatal(err)
	}
	first := secretOf(t, mailer.sent[0])
	res, err := s.CRMResendInvitation(ctx, crmCaller, "org-crm", "c-1")
	if err != nil || res.Status != 200 {
		t.Fatalf("%+v %v", res, err)
	}
	if len(mailer.sent) != 2 {
		t.Fatalf("mails %d", len(mailer.sent))
	}
	second := secretOf(t, mailer.sent[1])
	if _, _, err := s.OpenInvitation(ctx, second); err != nil {
		t.Errorf("the resent link does not open: %v", err)
	}
	if _, _, err := s.OpenInvitation(ctx, first); !domain.IsNotFound(err) {
		t.Errorf("the old link still opens: %v", err)
	}
}

func TestCRMOperationsNeedACRMCaller(t *testing.T) {
	s, mailer, _ := newCRMService(t)
	ctx := context.Background()
	person := &auth.Principal{Kind: auth.KindPerson, SuperUser: true, User: &domain.User{ID: 1, SuperUser: true}}
	machine := &auth.Principal{Kind: auth.KindMachine, SuperUser: true}
	for _, tc := range []struct {
		name string
		p    *auth.Principal
		want domain.ErrorKind
	}{
		{"anonymous", nil, domain.KindUnauthenticated},
		{"super user", person, domain.KindForbidden},
		{"super token", root, domain.KindForbidden},
		{"Basic machine caller", machine, domain.KindForbidden},
	} {
		calls := map[string]error{}
		_, calls["C1"] = s.CRMProfile(ctx, tc.p, crmInput("c-1", false))
		_, calls["C2"] = s.CRMDeleteProfile(ctx, tc.p, "org-crm", "c-1")
		_, calls["C3"] = s.CRMSendInvitation(ctx, tc.p, service.CRMInviteInput{OrganisationID: "org-crm", ContactID: "c-1", Email: "a@example.org", Roles: []service.CRMRoleInput{{RoleID: "crm-x"}}})
		_, calls["C4"] = s.CRMResendInvitation(ctx, tc.p, "org-crm", "c-1")
		_, calls["C5"] = s.CRMRemoveRoles(ctx, tc.p, "org-crm", "c-1")
		_, calls["C6"] = s.CRMOrganisationUsers(ctx, tc.p, "org-crm", nil)
		for op, err := range calls {
			if domain.KindOf(err) != tc.want {
				t.Errorf("%s as %s: %v, want kind %d", op, tc.name, err, tc.want)
			}
		}
	}
	// Basic machine callers may search profiles (the authenticator allows
	// them only on the CRM machine path); people may not.
	if _, err := s.CRMProfiles(ctx, machine, service.CRMProfileQuery{GUID: "org-crm"}); err != nil {
		t.Errorf("C7 as a machine caller: %v", err)
	}
	if _, err := s.CRMProfiles(ctx, person, service.CRMProfileQuery{GUID: "org-crm"}); domain.KindOf(err) != domain.KindForbidden {
		t.Errorf("C7 as a person: %v", err)
	}
	if len(mailer.sent) != 0 {
		t.Errorf("refused calls sent %d mails", len(mailer.sent))
	}
	if invs, _ := s.Store.ListCRMInvitations(ctx, "org-crm", ""); len(invs) != 0 {
		t.Errorf("refused calls created invitations %+v", invs)
	}
}

// failingAcceptance is a store whose acceptances fail, as when a
// concurrent request created the same user first.
type failingAcceptance struct{ domain.Store }

func (failingAcceptance) SaveAcceptance(context.Context, domain.Acceptance) error {
	return domain.Conflictf("a user with this sub already exists")
}

func TestCRMFailedGrantLeavesNoPendingInvitation(t *testing.T) {
	s, _, _ := newCRMService(t)
	ctx := context.Background()
	s.Store = failingAcceptance{s.Store}
	in := crmInput("c-1", true)
	in.UID, in.SchacHomeOrganisation = "jdoe", "example.com"
	if _, err := s.CRMProfile(ctx, crmCaller, in); domain.KindOf(err) != domain.KindConflict {
		t.Fatalf("err = %v", err)
	}
	if invs, _ := s.Store.ListCRMInvitations(ctx, "org-crm", "c-1"); len(invs) != 0 {
		t.Errorf("invitations left: %+v", invs)
	}
	if _, err := s.Store.GetUserBySub(ctx, "urn:collab:person:example.com:jdoe"); !domain.IsNotFound(err) {
		t.Errorf("user: %v", err)
	}
}
