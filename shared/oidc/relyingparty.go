package oidc

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"sync"

	gooidc "github.com/coreos/go-oidc/v3/oidc"
	"golang.org/x/oauth2"
)

// Errors of a browser sign-in. ErrSignInRefused covers every answer that
// must not sign anyone in (a code the IdP does not know or already
// redeemed, an ID token that does not verify, a wrong nonce); the pages show
// them all as "sign-in failed".
var ErrSignInRefused = errors.New("oidc: sign-in refused")

// RelyingParty signs people in through the browser: the authorization code
// flow with PKCE, state and nonce, as a confidential client. It is safe for
// concurrent use; discovery is lazy (first use) and cached, as for Verifier.
type RelyingParty struct {
	issuer, clientID, redirectURL string
	// secret returns the client secret (resolved from its reference on use,
	// so a rotated secret is picked up when the resolver's cache expires).
	secret func(context.Context) (string, error)
	client *http.Client

	mu         sync.Mutex
	provider   *gooidc.Provider
	endSession string
}

// NewRelyingParty returns a relying party of issuerURL for clientID, whose
// callback is redirectURL. It does no network I/O. An *http.Client set in
// ctx with go-oidc's ClientContext is used for every call to the IdP.
func NewRelyingParty(ctx context.Context, issuerURL, clientID, redirectURL string, secret func(context.Context) (string, error)) (*RelyingParty, error) {
	if _, err := url.ParseRequestURI(issuerURL); err != nil {
		return nil, fmt.Errorf("oidc: issuer URL %q: %w", issuerURL, err)
	}
	if clientID == "" || redirectURL == "" || secret == nil {
		return nil, errors.New("oidc: client id, redirect URL and client secret are required")
	}
	client, ok := ctx.Value(oauth2.HTTPClient).(*http.Client)
	if !ok || client == nil {
		client = &http.Client{Timeout: httpTimeout}
	}
	return &RelyingParty{issuer: issuerURL, clientID: clientID, redirectURL: redirectURL, secret: secret, client: client}, nil
}

func (rp *RelyingParty) discover(ctx context.Context) (*gooidc.Provider, error) {
	rp.mu.Lock()
	defer rp.mu.Unlock()
	if rp.provider != nil {
		return rp.provider, nil
	}
	p, err := gooidc.NewProvider(gooidc.ClientContext(ctx, rp.client), rp.issuer)
	if err != nil {
		return nil, newError(ErrProviderUnavailable, err)
	}
	var meta struct {
		EndSession string `json:"end_session_endpoint"`
	}
	_ = p.Claims(&meta)
	rp.provider, rp.endSession = p, meta.EndSession
	return p, nil
}

func (rp *RelyingParty) config(ctx context.Context, p *gooidc.Provider) (*oauth2.Config, error) {
	secret, err := rp.secret(ctx)
	if err != nil {
		return nil, fmt.Errorf("oidc: client secret: %w", err)
	}
	return &oauth2.Config{ClientID: rp.clientID, ClientSecret: secret, RedirectURL: rp.redirectURL,
		Endpoint: p.Endpoint(), Scopes: []string{gooidc.ScopeOpenID, "profile", "email"}}, nil
}

// AuthCodeURL is where the browser goes to sign in: with state, nonce, the
// PKCE challenge of verifier (S256), acr_values when acr is set, and
// prompt=login when freshLogin asks the IdP not to reuse its own session
// (signing in with another account).
func (rp *RelyingParty) AuthCodeURL(ctx context.Context, state, nonce, verifier, acr string, freshLogin bool) (string, error) {
	p, err := rp.discover(ctx)
	if err != nil {
		return "", err
	}
	cfg, err := rp.config(ctx, p)
	if err != nil {
		return "", err
	}
	opts := []oauth2.AuthCodeOption{gooidc.Nonce(nonce), oauth2.S256ChallengeOption(verifier)}
	if acr != "" {
		opts = append(opts, oauth2.SetAuthURLParam("acr_values", acr))
	}
	if freshLogin {
		opts = append(opts, oauth2.SetAuthURLParam("prompt", "login"))
	}
	return cfg.AuthCodeURL(state, opts...), nil
}

// Exchange redeems code with the PKCE verifier and verifies the ID token
// (signature, issuer, audience, expiry) and its nonce. It returns the
// person's claims (from the ID token; the acr claim is the one the IdP
// asserted) and the raw ID token for the logout hint.
func (rp *RelyingParty) Exchange(ctx context.Context, code, verifier, nonce string) (Claims, string, error) {
	p, err := rp.discover(ctx)
	if err != nil {
		return Claims{}, "", err
	}
	cfg, err := rp.config(ctx, p)
	if err != nil {
		return Claims{}, "", err
	}
	tok, err := cfg.Exchange(gooidc.ClientContext(ctx, rp.client), code, oauth2.VerifierOption(verifier))
	if err != nil {
		var re *oauth2.RetrieveError
		if errors.As(err, &re) && re.Response != nil && re.Response.StatusCode < 500 {
			return Claims{}, "", fmt.Errorf("%w: token endpoint: %s", ErrSignInRefused, re.ErrorCode)
		}
		return Claims{}, "", newError(ErrProviderUnavailable, err)
	}
	raw, _ := tok.Extra("id_token").(string)
	if raw == "" {
		return Claims{}, "", fmt.Errorf("%w: no id_token", ErrSignInRefused)
	}
	idToken, err := p.Verifier(&gooidc.Config{ClientID: rp.clientID}).Verify(ctx, raw)
	if err != nil {
		return Claims{}, "", fmt.Errorf("%w: id_token: %v", ErrSignInRefused, err)
	}
	if nonce == "" || idToken.Nonce != nonce {
		return Claims{}, "", fmt.Errorf("%w: nonce does not match", ErrSignInRefused)
	}
	var payload map[string]json.RawMessage
	if err := idToken.Claims(&payload); err != nil {
		return Claims{}, "", fmt.Errorf("%w: claims: %v", ErrSignInRefused, err)
	}
	claims, err := decodeClaims(payload)
	if err != nil || claims.Subject == "" {
		return Claims{}, "", fmt.Errorf("%w: claims: %v", ErrSignInRefused, err)
	}
	return claims, raw, nil
}

// EndSessionURL is the IdP's logout address with the ID token hint and the
// address to come back to, or "" when the IdP has no end_session_endpoint.
func (rp *RelyingParty) EndSessionURL(ctx context.Context, idTokenHint, postLogoutRedirect string) string {
	if _, err := rp.discover(ctx); err != nil {
		return ""
	}
	rp.mu.Lock()
	endSession := rp.endSession
	rp.mu.Unlock()
	if endSession == "" {
		return ""
	}
	u, err := url.Parse(endSession)
	if err != nil {
		return ""
	}
	q := u.Query()
	if idTokenHint != "" {
		q.Set("id_token_hint", idTokenHint)
	}
	q.Set("client_id", rp.clientID)
	q.Set("post_logout_redirect_uri", postLogoutRedirect)
	u.RawQuery = q.Encode()
	return u.String()
}
