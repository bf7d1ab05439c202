package service_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/edu-invite/invite/shared/mail"
	"github.com/edu-invite/invite/shared/service"
)

// TestInstitutionAdminInvitationIsMailed: an invitation that makes a person
// institution admin of an organization has no roles, and is e-mailed all
// the same, naming the organization and carrying the link.
func TestInstitutionAdminInvitationIsMailed(t *testing.T) {
	s, _ := newService(t)
	renderer, err := mail.NewRenderer("Invite")
	if err != nil {
		t.Fatal(err)
	}
	mailer := &flakyMailer{}
	s.Renderer, s.Mailer = renderer, mailer
	ctx := context.Background()
	expiry := now.Add(7 * 24 * time.Hour)
	res, err := s.Invite(ctx, root, service.InvitationInput{IntendedAuthority: "INSTITUTION_ADMIN", Invites: []string{"new.admin@example.org"},
		OrganizationGUID: "org-uni", ExpiryDate: &expiry})
	if err != nil || len(res.URLs) != 1 {
		t.Fatalf("invite: %+v, %v", res, err)
	}
	if _, err := s.SendPendingMails(ctx, now.Add(time.Minute)); err != nil {
		t.Fatal(err)
	}
	if len(mailer.sent) != 1 {
		t.Fatalf("%d mails sent, want the invitation", len(mailer.sent))
	}
	m := mailer.sent[0]
	if m.To != "new.admin@example.org" || !strings.Contains(m.Text, "institution administrator of org-uni") ||
		!strings.Contains(m.Text, res.URLs[0].InvitationURL) {
		t.Fatalf("mail to %s:\n%s", m.To, m.Text)
	}
}
