// Package oidc verifies the bearer access tokens that people present to the
// REST API: JWTs issued by the institution's OpenID Connect provider,
// checked against the issuer's published keys (JWKS).
package oidc

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"

	gooidc "github.com/coreos/go-oidc/v3/oidc"
)

// Claims are the person attributes the service reads from a token; the
// names are those of OpenConext (SURFconext) access tokens and userinfo.
type Claims struct {
	Subject                string `json:"sub"`
	EduPersonPrincipalName string `json:"eduperson_principal_name"`
	SchacHomeOrganization  string `json:"schac_home_organization"`
	Email                  string `json:"email"`
	GivenName              string `json:"given_name"`
	FamilyName             string `json:"family_name"`
	Name                   string `json:"name"`
	SubjectID              string `json:"subject_id"`
	UID                    string `json:"uid"`
	FedID                  string `json:"eduid"`
	ACR                    string `json:"acr"`
}

// ErrInvalidToken is returned for every token that does not verify; the
// cause is wrapped for logs, never shown to callers.
var ErrInvalidToken = errors.New("invalid bearer token")

// Verifier checks tokens of one issuer for one audience.
type Verifier struct {
	issuer   string
	audience string

	mu       sync.Mutex
	verifier *gooidc.IDTokenVerifier
}

// NewVerifier returns a verifier. Discovery happens on first use and is
// retried on the next request if it fails: a Lambda must not die at cold
// start because the IdP was briefly unreachable, and most invocations never
// need it (API tokens, public reads).
func NewVerifier(_ context.Context, issuerURL, audience string) (*Verifier, error) {
	if issuerURL == "" {
		return nil, fmt.Errorf("OIDC issuer URL is required")
	}
	return &Verifier{issuer: strings.TrimRight(issuerURL, "/"), audience: audience}, nil
}

func (v *Verifier) tokenVerifier(ctx context.Context) (*gooidc.IDTokenVerifier, error) {
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.verifier != nil {
		return v.verifier, nil
	}
	// The provider keeps the context for its later JWKS fetches, so it gets
	// one that outlives this request.
	provider, err := gooidc.NewProvider(context.WithoutCancel(ctx), v.issuer)
	if err != nil {
		return nil, fmt.Errorf("OIDC discovery of %s: %w", v.issuer, err)
	}
	v.verifier = provider.Verifier(&gooidc.Config{ClientID: v.audience, SkipClientIDCheck: v.audience == ""})
	return v.verifier, nil
}

// Verify checks the signature (JWKS, refreshed on an unknown key id),
// issuer, audience and expiry, and returns the claims.
func (v *Verifier) Verify(ctx context.Context, rawToken string) (Claims, error) {
	tv, err := v.tokenVerifier(ctx)
	if err != nil {
		return Claims{}, err
	}
	tok, err := tv.Verify(ctx, rawToken)
	if err != nil {
		return Claims{}, fmt.Errorf("%w: %v", ErrInvalidToken, err)
	}
	var c Claims
	if err := tok.Claims(&c); err != nil {
		return Claims{}, fmt.Errorf("%w: claims: %v", ErrInvalidToken, err)
	}
	if strings.TrimSpace(c.Subject) == "" {
		return Claims{}, fmt.Errorf("%w: no sub", ErrInvalidToken)
	}
	return c, nil
}

// BearerToken extracts the token of an "Authorization: Bearer" header.
func BearerToken(r *http.Request) (string, bool) {
	scheme, token, ok := strings.Cut(r.Header.Get("Authorization"), " ")
	token = strings.TrimSpace(token)
	if !ok || !strings.EqualFold(scheme, "Bearer") || token == "" {
		return "", false
	}
	return token, true
}
