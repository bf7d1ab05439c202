package testkit

import (
	"context"
	"net/url"
	"testing"
	"time"

	"github.com/edu-invite/invite/shared/auth"
	"github.com/edu-invite/invite/shared/domain"
	"github.com/edu-invite/invite/shared/service"
)

// SecretOfURL is the invitation secret in an acceptance link (its "hash"
// parameter), as a guest's browser would send it back.
func SecretOfURL(t testing.TB, link string) string {
	t.Helper()
	u, err := url.Parse(link)
	if err != nil {
		t.Fatal(err)
	}
	secret := u.Query().Get("hash")
	if secret == "" {
		t.Fatalf("no invitation secret in %q", link)
	}
	return secret
}

// Invite invites one address to one role as by, without e-mail, and
// returns the invitation's id and secret.
func Invite(t testing.TB, s *service.Service, by *auth.Principal, email string, role int64, authority domain.Authority, expires time.Time) (int64, string) {
	t.Helper()
	return InviteToRoles(t, s, by, email, []int64{role}, authority, expires)
}

// InviteToRoles invites one address to several roles at once as by,
// without e-mail, and returns the invitation's id and secret.
func InviteToRoles(t testing.TB, s *service.Service, by *auth.Principal, email string, roles []int64, authority domain.Authority, expires time.Time) (int64, string) {
	t.Helper()
	res, err := s.Invite(context.Background(), by, service.InvitationInput{IntendedAuthority: string(authority),
		Invites: []string{email}, RoleIDs: roles, ExpiryDate: &expires, SuppressSendingEmails: true})
	if err != nil {
		t.Fatal(err)
	}
	secret := SecretOfURL(t, res.URLs[0].InvitationURL)
	inv, err := s.Store.GetInvitationByHashDigest(context.Background(), service.HashDigest(secret))
	if err != nil {
		t.Fatal(err)
	}
	return inv.ID, secret
}

// InviteAndAccept invites a person to a role as by and accepts as that
// person.
func InviteAndAccept(t testing.TB, s *service.Service, by *auth.Principal, p auth.Person, role int64, authority domain.Authority, expires time.Time) service.AcceptResult {
	t.Helper()
	id, secret := Invite(t, s, by, p.Email, role, authority, expires)
	return AcceptAs(t, s, p, id, secret)
}

// AcceptAs accepts the invitation as the person (signed in, the
// invitation's own id and secret).
func AcceptAs(t testing.TB, s *service.Service, p auth.Person, id int64, secret string) service.AcceptResult {
	t.Helper()
	res, err := s.Accept(context.Background(), &auth.Principal{Kind: auth.KindPerson, Person: &p}, secret, id)
	if err != nil {
		t.Fatal(err)
	}
	return res
}
