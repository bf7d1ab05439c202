package auth

import (
	"context"
	"errors"
	"net/http/httptest"
	"testing"

	"github.com/edu-invite/invite/shared/domain"
)

type fakeTokens struct{ byHash map[string]domain.APIToken }

func (f fakeTokens) CreateAPIToken(context.Context, domain.APIToken) error { return nil }
func (f fakeTokens) GetAPITokenByHash(_ context.Context, h string) (domain.APIToken, error) {
	t, ok := f.byHash[h]
	if !ok {
		return t, domain.NotFoundf("no token")
	}
	return t, nil
}

// fakeUsers implements the lookups the authenticator makes; the embedded
// interface makes any other call fail loudly.
type fakeUsers struct {
	domain.UserStore
	bySub map[string]domain.User
	roles map[int64][]domain.UserRole
}

func (f fakeUsers) GetUserBySub(_ context.Context, sub string) (domain.User, error) {
	u, ok := f.bySub[sub]
	if !ok {
		return u, domain.NotFoundf("no user")
	}
	return u, nil
}

func (f fakeUsers) ListUserRolesOfUser(_ context.Context, id int64) ([]domain.UserRole, error) {
	return f.roles[id], nil
}

type fakeVerifier map[string]Person

func (f fakeVerifier) VerifyPerson(_ context.Context, raw string) (Person, error) {
	if raw == "idp-down" {
		return Person{}, domain.Unavailablef("idp down")
	}
	p, ok := f[raw]
	if !ok {
		return p, errors.New("bad signature")
	}
	return p, nil
}

func TestAuthenticate(t *testing.T) {
	a := &Authenticator{
		Tokens:             fakeTokens{byHash: map[string]domain.APIToken{HashToken("org-token"): {OrganizationGUID: "org-a", Description: "CRM sync"}}},
		Users:              fakeUsers{bySub: map[string]domain.User{"alice": {ID: 3, Sub: "alice"}}, roles: map[int64][]domain.UserRole{3: {{RoleID: 9, Authority: domain.Inviter}}}},
		People:             fakeVerifier{"alice-jwt": {Sub: "alice"}, "newcomer-jwt": {Sub: "bob", Email: "bob@example.org"}},
		BootstrapTokenHash: HashToken("boot"),
	}
	tests := []struct {
		name     string
		headers  map[string]string
		wantKind domain.ErrorKind
		check    func(*testing.T, *Principal)
	}{
		{name: "anonymous", check: func(t *testing.T, p *Principal) {
			if p != nil {
				t.Fatalf("principal %+v for no credentials", p)
			}
		}},
		{name: "bootstrap token", headers: map[string]string{APITokenHeader: "boot"}, check: func(t *testing.T, p *Principal) {
			if !p.SuperUser || p.Kind != KindAPIToken {
				t.Fatalf("%+v", p)
			}
		}},
		{name: "organization token", headers: map[string]string{APITokenHeader: "org-token"}, check: func(t *testing.T, p *Principal) {
			if p.SuperUser || p.OrganizationGUID != "org-a" || p.Name != "CRM sync (API token 0)" {
				t.Fatalf("%+v", p)
			}
		}},
		{name: "unknown token", headers: map[string]string{APITokenHeader: "guess"}, wantKind: domain.KindUnauthenticated},
		{name: "known person", headers: map[string]string{"Authorization": "Bearer alice-jwt"}, check: func(t *testing.T, p *Principal) {
			if p.User == nil || p.User.ID != 3 || p.Memberships[9] != domain.Inviter || p.SuperUser {
				t.Fatalf("%+v", p)
			}
		}},
		{name: "new person", headers: map[string]string{"Authorization": "bearer newcomer-jwt"}, check: func(t *testing.T, p *Principal) {
			if p.User != nil || p.Person == nil || p.Person.Sub != "bob" {
				t.Fatalf("%+v", p)
			}
		}},
		{name: "forged bearer", headers: map[string]string{"Authorization": "Bearer forged"}, wantKind: domain.KindUnauthenticated},
		{name: "IdP unreachable", headers: map[string]string{"Authorization": "Bearer idp-down"}, wantKind: domain.KindUnavailable},
		{name: "basic scheme", headers: map[string]string{"Authorization": "Basic dTpw"}, wantKind: domain.KindUnauthenticated},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := httptest.NewRequest("GET", "/", nil)
			for k, v := range tc.headers {
				r.Header.Set(k, v)
			}
			p, err := a.Authenticate(r)
			if tc.wantKind != 0 {
				if domain.KindOf(err) != tc.wantKind || p != nil {
					t.Fatalf("got %+v, %v; want error kind %d", p, err, tc.wantKind)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			tc.check(t, p)
		})
	}
}

func TestBearerRefusedWithoutIssuer(t *testing.T) {
	a := &Authenticator{}
	r := httptest.NewRequest("GET", "/", nil)
	r.Header.Set("Authorization", "Bearer x")
	if _, err := a.Authenticate(r); domain.KindOf(err) != domain.KindUnauthenticated {
		t.Fatalf("err = %v", err)
	}
}

// Issue 21 item 5: a token's calls are the token's, not its creator's.
func TestTokenActionsAreAttributedToTheToken(t *testing.T) {
	got := TokenName(domain.APIToken{ID: 7, Description: "HR sync", Owner: "super@example.org"})
	if got != "HR sync (API token 7)" {
		t.Errorf("TokenName = %q", got)
	}
}
