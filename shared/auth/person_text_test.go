package auth

import (
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/edu-invite/invite/shared/domain"
)

func TestClaimsAreNormalized(t *testing.T) {
	long := strings.Repeat("é", domain.MaxNameLength+10)
	for _, c := range []struct {
		name    string
		in, out Person
	}{
		{"line breaks and tabs in names become spaces",
			Person{Sub: "s", GivenName: "Ann\r\nBcc: x@example.org", FamilyName: "van\tder  Berg ", Name: "\nAnn  van der Berg\n"},
			Person{Sub: "s", GivenName: "Ann Bcc: x@example.org", FamilyName: "van der Berg", Name: "Ann van der Berg"}},
		{"control characters and bidirectional overrides",
			Person{Sub: "s", Name: "Ann\x00\x1b[31m\u202eevil\u202c"},
			Person{Sub: "s", Name: "Ann [31mevil"}},
		{"invalid UTF-8 in a name", Person{Sub: "s", Name: "Ann\xffB"}, Person{Sub: "s", Name: "Ann\uFFFDB"}},
		{"over-long names are cut", Person{Sub: "s", Name: long}, Person{Sub: "s", Name: long[:2*domain.MaxNameLength]}},
		{"identifiers with control characters count as not sent",
			Person{Sub: "s", Email: "a@example.org\nBcc: b@example.org", EduPersonPrincipalName: "a@example.org\u202e", SchacHomeOrganization: " example.org "},
			Person{Sub: "s", SchacHomeOrganization: "example.org"}},
		{"plain claims are kept", Person{Sub: "urn:x", Email: "a@example.org", GivenName: "Zoë", ACR: "mfa"},
			Person{Sub: "urn:x", Email: "a@example.org", GivenName: "Zoë", ACR: "mfa"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := c.in.Normalized(); got != c.out {
				t.Errorf("Normalized() = %+q\nwant %+q", got, c.out)
			}
		})
	}
}

// The principal of a bearer token (and of a browser sign-in, which builds
// it the same way) carries the normalized claims, and so does what the
// login sync is given to store.
func TestPrincipalCarriesNormalizedClaims(t *testing.T) {
	users := fakeUsers{bySub: map[string]domain.User{"alice": {ID: 3, Sub: "alice"}}}
	obs := &fakeObserver{}
	a := &Authenticator{Users: users, People: fakeVerifier{"jwt": {Sub: "alice", Name: "Alice\nSmith", Email: "a@example.org\r\n"}}, OnLogin: obs}
	r := httptest.NewRequest("GET", "/", nil)
	r.Header.Set("Authorization", "Bearer jwt")
	p, err := a.Authenticate(r)
	if err != nil {
		t.Fatal(err)
	}
	if p.Person.Name != "Alice Smith" || p.Person.Email != "a@example.org" {
		t.Errorf("principal's person %+q", *p.Person)
	}
	if len(obs.calls) != 1 || obs.calls[0].Name != "Alice Smith" {
		t.Errorf("login sync given %+q", obs.calls)
	}
}
