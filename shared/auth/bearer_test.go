package auth

import (
	"context"
	"net/http/httptest"
	"testing"

	"github.com/edu-invite/invite/shared/domain"
)

// clientVerifier answers every token as a client's own token.
type clientVerifier string

func (c clientVerifier) VerifyPerson(context.Context, string) (Person, error) {
	return Person{}, &ClientBearer{ClientID: string(c)}
}

// TestClientTokenIsAMachine: a client-credentials token is the machine
// caller configured for its client id, on that caller's paths only, and
// never a person; an unconfigured client has no rights.
func TestClientTokenIsAMachine(t *testing.T) {
	machines, err := NewMachineCallers(MachineCallersConfig{OAuthClients: []OAuthClientConfig{
		{ClientID: "hr-sync", DisplayName: "HR sync", OrganizationGUID: "org-a", Scopes: []string{ScopeInvite}}}})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, client, path string
		wantKind           domain.ErrorKind
	}{
		{name: "configured client on its path", client: "hr-sync", path: "/api/external/v1/internal/invite/roles"},
		{name: "configured client elsewhere", client: "hr-sync", path: "/api/v1/users/me", wantKind: domain.KindForbidden},
		{name: "unconfigured client", client: "stranger", path: "/api/external/v1/internal/invite/roles", wantKind: domain.KindForbidden},
		{name: "unconfigured client accepting", client: "stranger", path: "/api/v1/invitations/accept", wantKind: domain.KindForbidden},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := &Authenticator{People: clientVerifier(tt.client), Machines: machines}
			r := httptest.NewRequest("GET", tt.path, nil)
			r.Header.Set("Authorization", "Bearer token")
			p, err := a.Authenticate(r)
			if tt.wantKind != 0 {
				if domain.KindOf(err) != tt.wantKind || p != nil {
					t.Fatalf("got %+v, %v; want error kind %d", p, err, tt.wantKind)
				}
				return
			}
			if err != nil || p.Kind != KindMachine || p.Person != nil || p.OrganizationGUID != "org-a" || p.Name != "HR sync" || p.SuperUser {
				t.Fatalf("got %+v, %v; want the HR sync machine caller", p, err)
			}
		})
	}
}

// TestNamedSuperUsers: super users are named by sub, eppn or claim=value;
// an API token without the eppn still finds it on the stored user.
func TestNamedSuperUsers(t *testing.T) {
	stored := fakeUsers{bySub: map[string]domain.User{"s-known": {ID: 5, Sub: "s-known", EduPersonPrincipalName: "boss@uni.example.org"}}}
	tests := []struct {
		name   string
		config []string
		person Person
		want   bool
	}{
		{name: "by sub", config: []string{"s-1"}, person: Person{Sub: "s-1"}, want: true},
		{name: "by sub claim", config: []string{"sub=s-1"}, person: Person{Sub: "s-1"}, want: true},
		{name: "sub is case-sensitive", config: []string{"sub=S-1"}, person: Person{Sub: "s-1"}},
		{name: "by eppn", config: []string{"Boss@Uni.example.org"}, person: Person{Sub: "x", EduPersonPrincipalName: "boss@uni.example.org"}, want: true},
		{name: "by email claim", config: []string{"email=boss@example.org"}, person: Person{Sub: "x", Email: "Boss@example.org"}, want: true},
		{name: "by subject_id claim", config: []string{"subject_id=b@uni"}, person: Person{Sub: "x", SubjectID: "b@uni"}, want: true},
		{name: "claim named but absent", config: []string{"email=boss@example.org"}, person: Person{Sub: "x"}},
		{name: "empty value names nobody", config: []string{"email="}, person: Person{Sub: "x"}},
		{name: "eppn of the stored user", config: []string{"eppn=boss@uni.example.org"}, person: Person{Sub: "s-known"}, want: true},
		{name: "someone else", config: []string{"s-1", "eppn=boss@uni.example.org"}, person: Person{Sub: "s-2"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := &Authenticator{Users: stored, SuperUsers: tt.config}
			p, err := a.PersonPrincipal(context.Background(), tt.person)
			if err != nil || p.SuperUser != tt.want {
				t.Fatalf("PersonPrincipal = %+v, %v; want SuperUser %v", p, err, tt.want)
			}
			if p.User != nil && p.User.SuperUser != tt.want {
				t.Fatalf("the caller's user has SuperUser %v, want %v (users/me)", p.User.SuperUser, tt.want)
			}
		})
	}
}
