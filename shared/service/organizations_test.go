package service_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/edu-invite/invite/shared/auth"
	"github.com/edu-invite/invite/shared/config"
	"github.com/edu-invite/invite/shared/domain"
	"github.com/edu-invite/invite/shared/mail"
	"github.com/edu-invite/invite/shared/service"
)

// namedRegistry names org-reg by its application, as organizations were
// named before they had items of their own.
const namedRegistry = `{"applications": [
  {"manageId": "wiki", "manageType": "SAML20_SP", "landingPage": "https://wiki.example.org", "organizationGUID": "org-reg",
   "organizationName": "Registry University", "organizationNameNl": "Registeruniversiteit"}]}`

func newNamingService(t *testing.T) *service.Service {
	t.Helper()
	s, _ := newService(t)
	reg, err := config.Parse([]byte(namedRegistry))
	if err != nil {
		t.Fatal(err)
	}
	s.Registry = reg
	return s
}

var (
	orgAdmin = &auth.Principal{Kind: auth.KindPerson, Name: "admin@uni", OrganizationGUID: "org-uni", Person: &auth.Person{Name: "Admin"},
		User: &domain.User{ID: 901, InstitutionAdmin: true, OrganizationGUID: "org-uni"}}
	orgToken = &auth.Principal{Kind: auth.KindAPIToken, Name: "token", OrganizationGUID: "org-uni"}
	aGuest   = &auth.Principal{Kind: auth.KindPerson, Name: "guest", Person: &auth.Person{Name: "Guest"}, User: &domain.User{ID: 902}}
)

// TestOnlySuperUsersNameOrganizations: creating and renaming are super
// users' alone; everyone else is refused and nothing changes.
func TestOnlySuperUsersNameOrganizations(t *testing.T) {
	s := newNamingService(t)
	ctx := context.Background()
	if _, err := s.CreateOrganization(ctx, root, service.OrganizationInput{GUID: "org-uni", Name: "University"}); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		p    *auth.Principal
		want domain.ErrorKind
	}{
		{"nobody", nil, domain.KindUnauthenticated},
		{"institution admin", orgAdmin, domain.KindForbidden},
		{"organization token", orgToken, domain.KindForbidden},
		{"guest", aGuest, domain.KindForbidden},
	} {
		t.Run(c.name, func(t *testing.T) {
			if _, err := s.CreateOrganization(ctx, c.p, service.OrganizationInput{GUID: "org-new", Name: "New"}); domain.KindOf(err) != c.want {
				t.Errorf("create: %v, want kind %v", err, c.want)
			}
			if _, err := s.RenameOrganization(ctx, c.p, "org-uni", service.OrganizationInput{Name: "Taken over"}); domain.KindOf(err) != c.want {
				t.Errorf("rename: %v, want kind %v", err, c.want)
			}
		})
	}
	if got := s.OrganizationName(ctx, "org-uni", "en"); got != "University" {
		t.Errorf("name after refusals = %q", got)
	}
	if got := s.OrganizationName(ctx, "org-new", "en"); got != "org-new" {
		t.Errorf("a refused creation named org-new %q", got)
	}
}

// TestOrganizationNames: a stored name wins over the registry's, each
// language its own; bad input and taken or unknown GUIDs are refused and
// change nothing.
func TestOrganizationNames(t *testing.T) {
	s := newNamingService(t)
	ctx := context.Background()
	if got := s.OrganizationName(ctx, "org-reg", "nl"); got != "Registeruniversiteit" {
		t.Fatalf("registry's name = %q", got)
	}
	if _, err := s.RenameOrganization(ctx, root, "org-reg", service.OrganizationInput{Name: "Example University", NameNL: "Voorbeelduniversiteit"}); err != nil {
		t.Fatal(err)
	}
	for lang, want := range map[string]string{"en": "Example University", "nl": "Voorbeelduniversiteit"} {
		if got := s.OrganizationName(ctx, "org-reg", lang); got != want {
			t.Errorf("%s name = %q, want %q", lang, got, want)
		}
	}
	created, err := s.CreateOrganization(ctx, root, service.OrganizationInput{Name: "  Fresh College "})
	if err != nil || created.GUID == "" || created.Name != "Fresh College" {
		t.Fatalf("created %+v, %v", created, err)
	}
	for _, c := range []struct {
		name string
		do   func() error
		want domain.ErrorKind
	}{
		{"taken GUID", func() error {
			_, err := s.CreateOrganization(ctx, root, service.OrganizationInput{GUID: created.GUID, Name: "Impostor"})
			return err
		}, domain.KindConflict},
		{"no name", func() error {
			_, err := s.CreateOrganization(ctx, root, service.OrganizationInput{GUID: "org-blank", Name: "  "})
			return err
		}, domain.KindInvalid},
		{"GUID with a space", func() error {
			_, err := s.CreateOrganization(ctx, root, service.OrganizationInput{GUID: "org blank", Name: "Blank"})
			return err
		}, domain.KindInvalid},
		{"rename to no name", func() error {
			_, err := s.RenameOrganization(ctx, root, created.GUID, service.OrganizationInput{Name: ""})
			return err
		}, domain.KindInvalid},
		{"rename an unknown GUID", func() error {
			_, err := s.RenameOrganization(ctx, root, "org-nobody", service.OrganizationInput{Name: "Nobody"})
			return err
		}, domain.KindNotFound},
	} {
		if err := c.do(); domain.KindOf(err) != c.want {
			t.Errorf("%s: %v, want kind %v", c.name, err, c.want)
		}
	}
	if got := s.OrganizationName(ctx, created.GUID, "en"); got != "Fresh College" {
		t.Errorf("after refusals the name is %q", got)
	}
	all, err := s.ListOrganizations(ctx, root)
	if err != nil || len(all) != 2 || all[0].Name != "Example University" || !all[0].Stored || all[1].Name != "Fresh College" {
		t.Errorf("super user's list = %+v, %v", all, err)
	}
}

// TestWhoSeesWhichOrganizations: super users list every organization,
// institution admins and organization tokens their own only, guests none.
func TestWhoSeesWhichOrganizations(t *testing.T) {
	s := newNamingService(t)
	ctx := context.Background()
	for _, in := range []service.OrganizationInput{{GUID: "org-uni", Name: "University"}, {GUID: "org-other", Name: "Other College"}} {
		if _, err := s.CreateOrganization(ctx, root, in); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range []struct {
		name string
		p    *auth.Principal
		want []string
		kind domain.ErrorKind
	}{
		{"super user", root, []string{"Other College", "Registry University", "University"}, 0},
		{"institution admin", orgAdmin, []string{"University"}, 0},
		{"organization token", orgToken, []string{"University"}, 0},
		{"guest", aGuest, nil, domain.KindForbidden},
		{"nobody", nil, nil, domain.KindUnauthenticated},
	} {
		t.Run(c.name, func(t *testing.T) {
			orgs, err := s.ListOrganizations(ctx, c.p)
			if domain.KindOf(err) != c.kind {
				t.Fatalf("err %v, want kind %v", err, c.kind)
			}
			var names []string
			for _, o := range orgs {
				names = append(names, o.Name)
			}
			if strings.Join(names, "|") != strings.Join(c.want, "|") {
				t.Errorf("sees %v, want %v", names, c.want)
			}
		})
	}
}

// TestInvitationMailNamesTheOrganization: an institution-admin invitation
// names the organization by the name a super user gave it, in the
// invitation's language.
func TestInvitationMailNamesTheOrganization(t *testing.T) {
	s := newNamingService(t)
	renderer, err := mail.NewRenderer("Invite")
	if err != nil {
		t.Fatal(err)
	}
	mailer := &flakyMailer{}
	s.Renderer, s.Mailer = renderer, mailer
	ctx := context.Background()
	if _, err := s.CreateOrganization(ctx, root, service.OrganizationInput{GUID: "org-uni", Name: "University of Examples", NameNL: "Universiteit van Voorbeelden"}); err != nil {
		t.Fatal(err)
	}
	expiry := now.Add(7 * 24 * time.Hour)
	for _, lang := range []string{"en", "nl"} {
		if _, err := s.Invite(ctx, root, service.InvitationInput{IntendedAuthority: "INSTITUTION_ADMIN", Invites: []string{lang + ".admin@example.org"},
			OrganizationGUID: "org-uni", ExpiryDate: &expiry, Language: lang}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := s.SendPendingMails(ctx, now.Add(time.Minute)); err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"en.admin@example.org": "University of Examples", "nl.admin@example.org": "Universiteit van Voorbeelden"}
	if len(mailer.sent) != 2 {
		t.Fatalf("%d mails sent", len(mailer.sent))
	}
	for _, m := range mailer.sent {
		if !strings.Contains(m.Text, want[m.To]) || strings.Contains(m.Text, "org-uni") {
			t.Errorf("mail to %s does not name %q:\n%s", m.To, want[m.To], m.Text)
		}
	}
}
