package service_test

import (
	"context"
	"testing"
	"time"

	"github.com/edu-invite/invite/shared/auth"
	"github.com/edu-invite/invite/shared/domain"
	"github.com/edu-invite/invite/shared/service"
)

// TestOpenInvitationLink: the console shows an invitation's link only while
// it is open, only to whom may manage it, and only when the kept secret is
// the link's.
func TestOpenInvitationLink(t *testing.T) {
	s, _ := newService(t)
	ctx := context.Background()
	role, err := s.CreateRole(ctx, root, wikiRole("Links"))
	if err != nil {
		t.Fatal(err)
	}
	expiry := now.Add(48 * time.Hour)
	res, err := s.Invite(ctx, root, service.InvitationInput{IntendedAuthority: "GUEST", Invites: []string{"link@example.org"}, RoleIDs: []int64{role.ID},
		ExpiryDate: &expiry, SuppressSendingEmails: true})
	if err != nil || len(res.URLs) != 1 {
		t.Fatalf("invite: %v %+v", err, res)
	}
	sent := res.URLs[0].InvitationURL
	invs, err := s.RoleInvitationHistory(ctx, root, role.ID)
	if err != nil || len(invs) != 1 {
		t.Fatalf("history: %v %d", err, len(invs))
	}
	open := invs[0]
	person := func(a domain.Authority) *auth.Principal {
		return &auth.Principal{Kind: auth.KindPerson, Memberships: map[int64]domain.Authority{role.ID: a}, User: &domain.User{ID: 77}}
	}
	change := func(f func(*domain.Invitation)) service.InvitationWithRoles {
		c := open
		f(&c.Invitation)
		return c
	}
	cases := []struct {
		name string
		p    *auth.Principal
		inv  service.InvitationWithRoles
		at   time.Time
		want string
	}{
		{"super user, open", root, open, now, sent},
		{"manager, open", person(domain.Manager), open, now, sent},
		{"inviter, open guest invitation", person(domain.Inviter), open, now, sent},
		{"guest", person(domain.Guest), open, now, ""},
		{"nobody", nil, open, now, ""},
		{"expired by date", root, open, expiry, ""},
		{"marked expired", root, change(func(i *domain.Invitation) { i.Status = domain.InvitationExpired }), now, ""},
		{"accepted", root, change(func(i *domain.Invitation) { i.Status = domain.InvitationAccepted }), now, ""},
		{"no kept secret", root, change(func(i *domain.Invitation) { i.LinkSecret = "" }), now, ""},
		{"secret of another link", root, change(func(i *domain.Invitation) { i.LinkSecret = "not-the-secret" }), now, ""},
		{"inviter, manager invitation", person(domain.Inviter), change(func(i *domain.Invitation) { i.IntendedAuthority = domain.Manager }), now, ""},
	}
	for _, c := range cases {
		if got := s.OpenInvitationLink(c.p, c.inv, c.at); got != c.want {
			t.Errorf("%s: link %q, want %q", c.name, got, c.want)
		}
	}
	if sent == "" {
		t.Fatal("the invite answered no link")
	}
}
