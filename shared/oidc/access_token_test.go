package oidc_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"net/url"
	"sync/atomic"
	"testing"
	"time"

	"github.com/edu-invite/invite/shared/oidc"
)

// TestVerifyRefusesIDTokens: an ID token of the same provider, even one
// whose audience is the API's (client id = audience), is not an access
// token (RFC 9068: typ at+jwt).
func TestVerifyRefusesIDTokens(t *testing.T) {
	p := serveIdP(t)
	v := newVerifier(t, p.Issuer())
	idToken, err := p.MintIDToken(openConextClaims(), testAudience, tokenTTL)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := v.Verify(context.Background(), idToken); !errors.Is(err, oidc.ErrNotAccessToken) || !errors.Is(err, oidc.ErrInvalidToken) {
		t.Fatalf("Verify(ID token) = %v; want ErrNotAccessToken", err)
	}
}

// TestVerifyTellsClientTokens: a client's own token (sub = client_id)
// verifies, and says it has no person behind it.
func TestVerifyTellsClientTokens(t *testing.T) {
	p := serveIdP(t)
	v := newVerifier(t, p.Issuer())
	c, err := v.Verify(context.Background(), mint(t, p.IdP, map[string]any{"sub": "machine", "client_id": "machine"}))
	if err != nil || !c.IsClient() {
		t.Fatalf("Verify = %+v, %v; want a client's token", c, err)
	}
	c, err = v.Verify(context.Background(), mint(t, p.IdP, map[string]any{"sub": "person", "client_id": "cli"}))
	if err != nil || c.IsClient() {
		t.Fatalf("Verify = %+v, %v; want a person's token", c, err)
	}
}

// introspectionEndpoint answers RFC 7662 requests with answers[token] for
// the client "api" with secret "s3cret", counting the calls.
func introspectionEndpoint(t *testing.T, issuer *string, answers map[string]map[string]any, calls *atomic.Int64) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/.well-known/openid-configuration":
			_ = json.NewEncoder(w).Encode(map[string]string{"issuer": *issuer, "jwks_uri": *issuer + "/jwks",
				"introspection_endpoint": *issuer + "/introspect"})
		case "/introspect":
			calls.Add(1)
			user, pass, _ := r.BasicAuth()
			if user != "api" || pass != url.QueryEscape("s3cret") {
				http.Error(w, `{"error":"invalid_client"}`, http.StatusUnauthorized)
				return
			}
			_ = r.ParseForm()
			answer, ok := answers[r.PostForm.Get("token")]
			if !ok {
				answer = map[string]any{"active": false}
			}
			_ = json.NewEncoder(w).Encode(answer)
		default:
			http.NotFound(w, r)
		}
	}
}

func TestIntrospection(t *testing.T) {
	var issuer string
	exp := time.Now().Add(time.Hour).Unix()
	answers := map[string]map[string]any{
		"person":   {"active": true, "iss": "", "sub": "p1", "client_id": "cli", "aud": "invite-api", "exp": exp, "acr": "urn:mfa", "email": "p@x"},
		"client":   {"active": true, "client_id": "machine", "aud": []string{"invite-api"}, "exp": exp},
		"userinfo": {"active": true, "sub": "p1", "client_id": "web", "exp": exp},
		"other":    {"active": true, "sub": "p1", "client_id": "cli", "aud": "another-api", "exp": exp},
		"expired":  {"active": true, "sub": "p1", "client_id": "cli", "aud": "invite-api", "exp": time.Now().Add(-time.Minute).Unix()},
		"foreign":  {"active": true, "iss": "https://elsewhere.example.org", "sub": "p1", "aud": "invite-api", "exp": exp},
	}
	var calls atomic.Int64
	srv := httptest.NewServer(introspectionEndpoint(t, &issuer, answers, &calls))
	defer srv.Close()
	issuer = srv.URL
	answers["person"]["iss"] = issuer
	v, err := oidc.NewVerifierWithOptions(context.Background(), issuer, "invite-api", oidc.VerifierOptions{
		IntrospectionClientID: "api", IntrospectionSecret: func(context.Context) (string, error) { return "s3cret", nil }})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		token    string
		wantErr  error
		wantSub  string
		isClient bool
	}{
		{token: "person", wantSub: "p1"},
		{token: "client", isClient: true},
		{token: "userinfo", wantErr: oidc.ErrNotAccessToken},
		{token: "other", wantErr: oidc.ErrNotAccessToken},
		{token: "expired", wantErr: oidc.ErrTokenExpired},
		{token: "foreign", wantErr: oidc.ErrInvalidToken},
		{token: "unknown", wantErr: oidc.ErrInvalidToken},
	}
	for _, tt := range tests {
		t.Run(tt.token, func(t *testing.T) {
			c, err := v.Verify(context.Background(), tt.token)
			if tt.wantErr != nil {
				if !errors.Is(err, tt.wantErr) {
					t.Fatalf("Verify = %+v, %v; want %v", c, err, tt.wantErr)
				}
				return
			}
			if err != nil || c.Subject != tt.wantSub || c.IsClient() != tt.isClient {
				t.Fatalf("Verify = %+v, %v", c, err)
			}
		})
	}
	before := calls.Load()
	c, err := v.Verify(context.Background(), "person")
	if err != nil || c.ACR != "urn:mfa" || c.Email != "p@x" || calls.Load() != before {
		t.Fatalf("a second Verify of an active token = %+v, %v, %d more calls; want the cached answer", c, err, calls.Load()-before)
	}

	wrongSecret, _ := oidc.NewVerifierWithOptions(context.Background(), issuer, "invite-api", oidc.VerifierOptions{
		IntrospectionClientID: "api", IntrospectionSecret: func(context.Context) (string, error) { return "wrong", nil }})
	if _, err := wrongSecret.Verify(context.Background(), "person"); !errors.Is(err, oidc.ErrMisconfigured) {
		t.Fatalf("introspection with a wrong secret = %v; want ErrMisconfigured", err)
	}
}
