package oidc_test

import (
	"context"
	"net/url"
	"testing"

	"github.com/edu-invite/invite/shared/oidc"
)

// TestAuthCodeURL: a sign-in asking for an authentication context forces a
// fresh login, as does switching accounts; the configured scopes are asked
// for, always with openid.
func TestAuthCodeURL(t *testing.T) {
	p := serveIdP(t)
	secret := func(context.Context) (string, error) { return "secret", nil }
	tests := []struct {
		name       string
		scopes     []string
		acr        string
		fresh      bool
		wantPrompt string
		wantScope  string
	}{
		{name: "plain", wantScope: "openid profile email"},
		{name: "step-up", acr: "urn:mfa", wantPrompt: "login", wantScope: "openid profile email"},
		{name: "switch account", fresh: true, wantPrompt: "login", wantScope: "openid profile email"},
		{name: "configured scopes", scopes: []string{"profile", "eduperson"}, wantScope: "openid profile eduperson"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rp, err := oidc.NewRelyingPartyWithOptions(context.Background(), p.Issuer(), "web", "https://invite.example.org/login/callback", secret,
				oidc.RelyingPartyOptions{Scopes: tt.scopes})
			if err != nil {
				t.Fatal(err)
			}
			raw, err := rp.AuthCodeURL(context.Background(), "state", "nonce", "verifier-verifier-verifier-verifier-verifier", tt.acr, tt.fresh)
			if err != nil {
				t.Fatal(err)
			}
			u, _ := url.Parse(raw)
			q := u.Query()
			if q.Get("prompt") != tt.wantPrompt || q.Get("acr_values") != tt.acr || q.Get("scope") != tt.wantScope {
				t.Fatalf("prompt %q acr_values %q scope %q; want %q %q %q", q.Get("prompt"), q.Get("acr_values"), q.Get("scope"),
					tt.wantPrompt, tt.acr, tt.wantScope)
			}
		})
	}
}
