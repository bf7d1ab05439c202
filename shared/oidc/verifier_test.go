package oidc_test

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/edu-invite/invite/localstack/idp"
	"github.com/edu-invite/invite/shared/oidc"
)

func openConextClaims() map[string]any {
	return map[string]any{
		"sub":                      "urn:collab:person:example.org:jdoe",
		"eduperson_principal_name": "jdoe@example.org",
		"schac_home_organization":  "example.org",
		"email":                    "jdoe@example.org",
		"given_name":               []string{"John"}, // multi-valued, as OpenConext relays SAML
		"family_name":              "Doe",
		"name":                     "John Doe",
		"subject_id":               "jdoe@example.org",
		"uids":                     []string{"jdoe"},
		"eduid":                    "c0ffee-eduid",
		"acr":                      "http://test.surfconext.nl/assurance/loa2",
	}
}

func TestVerifyAcceptsValidToken(t *testing.T) {
	p := serveIdP(t)
	v := newVerifier(t, p.Issuer())

	got, err := v.Verify(context.Background(), mint(t, p.IdP, openConextClaims()))
	if err != nil {
		t.Fatalf("Verify: %v", err)
	}
	want := oidc.Claims{
		Subject:                "urn:collab:person:example.org:jdoe",
		EduPersonPrincipalName: "jdoe@example.org",
		SchacHomeOrganization:  "example.org",
		Email:                  "jdoe@example.org",
		GivenName:              "John",
		FamilyName:             "Doe",
		Name:                   "John Doe",
		SubjectID:              "jdoe@example.org",
		UID:                    "jdoe",
		FedID:                  "c0ffee-eduid",
		ACR:                    "http://test.surfconext.nl/assurance/loa2",
	}
	if got != want {
		t.Fatalf("claims\n got %+v\nwant %+v", got, want)
	}
}

func TestVerifyReadsUID(t *testing.T) {
	p := serveIdP(t)
	v := newVerifier(t, p.Issuer())
	tests := []struct {
		name   string
		claims map[string]any
		want   string
	}{
		{name: "uid string", claims: map[string]any{"sub": "s", "uid": "jdoe"}, want: "jdoe"},
		{name: "uids list", claims: map[string]any{"sub": "s", "uids": []string{"", "jdoe", "other"}}, want: "jdoe"},
		{name: "uids wins over uid", claims: map[string]any{"sub": "s", "uid": "old", "uids": []string{"jdoe"}}, want: "jdoe"},
		{name: "empty uids falls back to uid", claims: map[string]any{"sub": "s", "uid": "jdoe", "uids": []string{}}, want: "jdoe"},
		{name: "null", claims: map[string]any{"sub": "s", "uid": nil}, want: ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := v.Verify(context.Background(), mint(t, p.IdP, tt.claims))
			if err != nil || got.UID != tt.want {
				t.Fatalf("got %+v, %v; want UID %q", got, err, tt.want)
			}
		})
	}
}

func TestVerifyRejects(t *testing.T) {
	p := serveIdP(t)
	// Same issuer string, different key: what a forger without the IdP's key
	// can produce.
	impostor, err := idp.New(p.Issuer())
	if err != nil {
		t.Fatal(err)
	}
	valid := mint(t, p.IdP, openConextClaims())
	header, payload, _ := strings.Cut(valid, ".")
	payload, _, _ = strings.Cut(payload, ".")

	minted := func(claims map[string]any, audience string, ttl time.Duration) string {
		token, err := p.Mint(claims, audience, ttl)
		if err != nil {
			t.Fatal(err)
		}
		return token
	}
	without := func(name string) map[string]any {
		c := openConextClaims()
		delete(c, name)
		return c
	}
	with := func(name string, value any) map[string]any {
		c := openConextClaims()
		c[name] = value
		return c
	}
	tampered := header + "." + encodeSegment(t, with("sub", "someone-else")) + "." + strings.Split(valid, ".")[2]

	tests := []struct {
		name    string
		token   string
		expired bool
	}{
		{name: "wrong audience", token: minted(openConextClaims(), "another-api", tokenTTL)},
		{name: "no audience", token: minted(openConextClaims(), "", tokenTTL)},
		{name: "wrong issuer", token: minted(with("iss", "https://evil.example.org"), testAudience, tokenTTL)},
		{name: "expired", token: minted(openConextClaims(), testAudience, -time.Minute), expired: true},
		{name: "not yet valid", token: minted(with("nbf", time.Now().Add(time.Hour).Unix()), testAudience, 2*time.Hour)},
		{name: "signed by another key", token: mint(t, impostor, openConextClaims())},
		{name: "payload tampered", token: tampered},
		{name: "alg none", token: encodeSegment(t, map[string]any{"alg": "none", "typ": "JWT"}) + "." + payload + "."},
		{name: "alg HS256", token: hs256(t, payload)},
		{name: "garbage", token: "not-a-jwt"},
		{name: "three garbage segments", token: "a.b.c"},
		{name: "empty", token: ""},
		{name: "too large", token: strings.Repeat("a", 17<<10)},
		{name: "missing sub", token: mint(t, p.IdP, without("sub"))},
		{name: "empty sub", token: mint(t, p.IdP, with("sub", ""))},
		{name: "numeric sub", token: mint(t, p.IdP, with("sub", 42))},
		{name: "claim of unexpected type", token: mint(t, p.IdP, with("email", map[string]any{"x": 1}))},
	}
	v := newVerifier(t, p.Issuer())
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			claims, err := v.Verify(context.Background(), tt.token)
			t.Log(err)
			if !errors.Is(err, oidc.ErrInvalidToken) {
				t.Fatalf("Verify = %+v, %v; want ErrInvalidToken", claims, err)
			}
			if errors.Is(err, oidc.ErrProviderUnavailable) {
				t.Fatalf("Verify error %v also matches ErrProviderUnavailable", err)
			}
			if got := errors.Is(err, oidc.ErrTokenExpired); got != tt.expired {
				t.Fatalf("errors.Is(err, ErrTokenExpired) = %v, want %v (%v)", got, tt.expired, err)
			}
			if claims != (oidc.Claims{}) {
				t.Fatalf("claims returned with error: %+v", claims)
			}
			if tt.token != "" && len(tt.token) > 20 && strings.Contains(err.Error(), tt.token) {
				t.Fatalf("error text contains the token")
			}
		})
	}
}

// TestVerifyRefetchesKeysOnRotation: the verifier cached the JWKS, the IdP
// rotates, a token with the new kid must still verify through one refetch.
func TestVerifyRefetchesKeysOnRotation(t *testing.T) {
	p := serveIdP(t)
	v := newVerifier(t, p.Issuer())
	ctx := context.Background()

	before := mint(t, p.IdP, openConextClaims())
	if _, err := v.Verify(ctx, before); err != nil {
		t.Fatalf("before rotation: %v", err)
	}
	if _, err := v.Verify(ctx, before); err != nil {
		t.Fatalf("before rotation, cached: %v", err)
	}
	if n := p.jwksFetches.Load(); n != 1 {
		t.Fatalf("JWKS fetched %d times before rotation, want 1 (cached)", n)
	}

	if err := p.Rotate(); err != nil {
		t.Fatal(err)
	}
	after := mint(t, p.IdP, openConextClaims())
	if _, err := v.Verify(ctx, after); err != nil {
		t.Fatalf("after rotation: %v", err)
	}
	if n := p.jwksFetches.Load(); n != 2 {
		t.Fatalf("JWKS fetched %d times, want 2 (one refetch for the new kid)", n)
	}
	if _, err := v.Verify(ctx, before); err != nil {
		t.Fatalf("token of the previous key after rotation: %v", err)
	}
}

func TestVerifyJWKSUnavailable(t *testing.T) {
	p := serveIdP(t)
	v := newVerifier(t, p.Issuer())
	token := mint(t, p.IdP, openConextClaims())

	p.failJWKS.Store(true)
	_, err := v.Verify(context.Background(), token)
	if !errors.Is(err, oidc.ErrProviderUnavailable) || errors.Is(err, oidc.ErrInvalidToken) {
		t.Fatalf("Verify with JWKS down = %v; want only ErrProviderUnavailable", err)
	}

	// go-oidc forgets a failed key fetch just after handing its result to
	// the waiting callers: a call in that instant still shares the failure.
	// Recovery must follow within moments, not on the first call.
	p.failJWKS.Store(false)
	deadline := time.Now().Add(2 * time.Second)
	for {
		_, err := v.Verify(context.Background(), token)
		if err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("Verify after JWKS recovered: %v", err)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func TestVerifyRetriesDiscovery(t *testing.T) {
	p := serveIdP(t)
	v := newVerifier(t, p.Issuer())
	token := mint(t, p.IdP, openConextClaims())
	ctx := context.Background()

	p.failDiscovery.Store(true)
	if _, err := v.Verify(ctx, token); !errors.Is(err, oidc.ErrProviderUnavailable) {
		t.Fatalf("Verify with discovery down = %v; want ErrProviderUnavailable", err)
	}
	p.failDiscovery.Store(false)
	// Within the back-off the failure is remembered, not retried.
	if _, err := v.Verify(ctx, token); !errors.Is(err, oidc.ErrProviderUnavailable) {
		t.Fatalf("Verify within back-off = %v; want ErrProviderUnavailable", err)
	}
	oidc.SetDiscoveryRetryAfter(v, 0)
	if _, err := v.Verify(ctx, token); err != nil {
		t.Fatalf("Verify after discovery recovered: %v", err)
	}
}

func TestVerifyIssuerMismatchIsUnavailable(t *testing.T) {
	p := serveIdP(t)
	// A trailing slash is a different issuer: a configuration error, which
	// must not look like the caller's fault.
	v := newVerifier(t, p.Issuer()+"/")
	_, err := v.Verify(context.Background(), mint(t, p.IdP, openConextClaims()))
	if !errors.Is(err, oidc.ErrProviderUnavailable) {
		t.Fatalf("Verify = %v; want ErrProviderUnavailable", err)
	}
}

func TestVerifyConcurrentFirstUse(t *testing.T) {
	p := serveIdP(t)
	v := newVerifier(t, p.Issuer())
	token := mint(t, p.IdP, openConextClaims())
	var wg sync.WaitGroup
	errs := make(chan error, 16)
	for range 16 {
		wg.Go(func() {
			if _, err := v.Verify(context.Background(), token); err != nil {
				errs <- err
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

func TestNewVerifierRejectsBadConfiguration(t *testing.T) {
	for _, tt := range []struct{ issuer, audience string }{
		{"", testAudience},
		{"not a url", testAudience},
		{"/relative", testAudience},
		{"https://idp.example.org", ""},
	} {
		if _, err := oidc.NewVerifier(context.Background(), tt.issuer, tt.audience); err == nil {
			t.Errorf("NewVerifier(%q, %q) succeeded", tt.issuer, tt.audience)
		}
	}
}

func encodeSegment(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return base64.RawURLEncoding.EncodeToString(b)
}

// hs256 signs payload with HMAC, the classic algorithm-confusion attack.
func hs256(t *testing.T, payload string) string {
	signingInput := encodeSegment(t, map[string]any{"alg": "HS256", "typ": "JWT"}) + "." + payload
	mac := hmac.New(sha256.New, []byte("guessable"))
	mac.Write([]byte(signingInput))
	return signingInput + "." + base64.RawURLEncoding.EncodeToString(mac.Sum(nil))
}
