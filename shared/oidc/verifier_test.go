package oidc_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/edu-invite/invite/localstack/idp"
	"github.com/edu-invite/invite/shared/oidc"
)

// startIdP serves a development IdP under /idp, as the local stack does.
func startIdP(t *testing.T) (*idp.IdP, string) {
	t.Helper()
	mux := http.NewServeMux()
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	p, err := idp.New(srv.URL + "/idp")
	if err != nil {
		t.Fatal(err)
	}
	mux.Handle("/idp/", http.StripPrefix("/idp", p.Handler()))
	return p, srv.URL + "/idp"
}

var alice = map[string]any{"sub": "urn:collab:person:example.org:alice", "eduperson_principal_name": "alice@example.org",
	"email": "alice@example.org", "given_name": "Alice", "family_name": "Archer", "schac_home_organization": "example.org", "eduid": "fed-1"}

func TestVerify(t *testing.T) {
	p, issuer := startIdP(t)
	other, _ := startIdP(t)
	v, err := oidc.NewVerifier(context.Background(), issuer, "invite")
	if err != nil {
		t.Fatal(err)
	}
	mint := func(signer *idp.IdP, claims map[string]any, aud string, ttl time.Duration) string {
		tok, err := signer.Mint(claims, aud, ttl)
		if err != nil {
			t.Fatal(err)
		}
		return tok
	}
	noSub := map[string]any{"email": "x@example.org"}
	tests := []struct {
		name  string
		token string
		ok    bool
	}{
		{"valid", mint(p, alice, "invite", time.Hour), true},
		{"wrong audience", mint(p, alice, "someone-else", time.Hour), false},
		{"expired", mint(p, alice, "invite", -time.Minute), false},
		{"other issuer's key and issuer", mint(other, alice, "invite", time.Hour), false},
		{"no sub", mint(p, noSub, "invite", time.Hour), false},
		{"garbage", "not.a.jwt", false},
		{"alg none", "eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0.", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c, err := v.Verify(context.Background(), tc.token)
			if !tc.ok {
				if err == nil || !errors.Is(err, oidc.ErrInvalidToken) {
					t.Fatalf("err = %v, want ErrInvalidToken", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if c.Subject != alice["sub"] || c.EduPersonPrincipalName != "alice@example.org" || c.GivenName != "Alice" ||
				c.FamilyName != "Archer" || c.SchacHomeOrganization != "example.org" || c.FedID != "fed-1" {
				t.Fatalf("claims = %+v", c)
			}
		})
	}
}

func TestVerifyAfterKeyRotation(t *testing.T) {
	p, issuer := startIdP(t)
	v, _ := oidc.NewVerifier(context.Background(), issuer, "invite")
	before, _ := p.Mint(alice, "invite", time.Hour)
	if _, err := v.Verify(context.Background(), before); err != nil {
		t.Fatal(err)
	}
	if err := p.Rotate(); err != nil {
		t.Fatal(err)
	}
	after, _ := p.Mint(alice, "invite", time.Hour)
	if _, err := v.Verify(context.Background(), after); err != nil {
		t.Fatalf("token signed with the new key: %v", err)
	}
}

func TestDiscoveryFailureIsRetried(t *testing.T) {
	mux := http.NewServeMux()
	srv := httptest.NewServer(mux)
	defer srv.Close()
	v, _ := oidc.NewVerifier(context.Background(), srv.URL+"/idp", "invite")
	if _, err := v.Verify(context.Background(), "x"); err == nil || !strings.Contains(err.Error(), "discovery") {
		t.Fatalf("err = %v, want a discovery error", err)
	}
	p, err := idp.New(srv.URL + "/idp")
	if err != nil {
		t.Fatal(err)
	}
	mux.Handle("/idp/", http.StripPrefix("/idp", p.Handler()))
	tok, _ := p.Mint(alice, "invite", time.Hour)
	if _, err := v.Verify(context.Background(), tok); err != nil {
		t.Fatalf("after the IdP came up: %v", err)
	}
}

func TestBearerToken(t *testing.T) {
	tests := map[string]struct {
		header string
		want   string
		ok     bool
	}{
		"bearer":      {"Bearer abc", "abc", true},
		"lower case":  {"bearer abc", "abc", true},
		"basic":       {"Basic abc", "", false},
		"empty token": {"Bearer  ", "", false},
		"no header":   {"", "", false},
		"scheme only": {"Bearer", "", false},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			r := httptest.NewRequest("GET", "/", nil)
			if tc.header != "" {
				r.Header.Set("Authorization", tc.header)
			}
			got, ok := oidc.BearerToken(r)
			if got != tc.want || ok != tc.ok {
				t.Fatalf("BearerToken(%q) = %q, %v", tc.header, got, ok)
			}
		})
	}
}
