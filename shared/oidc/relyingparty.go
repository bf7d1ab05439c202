package oidc

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"
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
	opts   RelyingPartyOptions

	mu       sync.Mutex
	provider *gooidc.Provider
	meta     metadata
}

// RelyingPartyOptions are the choices an institution's provider may need.
type RelyingPartyOptions struct {
	// Scopes asked for; empty means "openid profile email". "openid" is
	// always asked for.
	Scopes []string
	// Claims names the claims carrying each attribute.
	Claims ClaimNames
}

// NewRelyingParty returns a relying party of issuerURL for clientID, whose
// callback is redirectURL. It does no network I/O. An *http.Client set in
// ctx with go-oidc's ClientContext is used for every call to the IdP.
func NewRelyingParty(ctx context.Context, issuerURL, clientID, redirectURL string, secret func(context.Context) (string, error)) (*RelyingParty, error) {
	return NewRelyingPartyWithOptions(ctx, issuerURL, clientID, redirectURL, secret, RelyingPartyOptions{})
}

// NewRelyingPartyWithOptions is NewRelyingParty with options.
func NewRelyingPartyWithOptions(ctx context.Context, issuerURL, clientID, redirectURL string, secret func(context.Context) (string, error), opts RelyingPartyOptions) (*RelyingParty, error) {
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
	if len(opts.Scopes) == 0 {
		opts.Scopes = []string{"profile", "email"}
	}
	if !slices.Contains(opts.Scopes, gooidc.ScopeOpenID) {
		opts.Scopes = append([]string{gooidc.ScopeOpenID}, opts.Scopes...)
	}
	return &RelyingParty{issuer: issuerURL, clientID: clientID, redirectURL: redirectURL, secret: secret, client: client, opts: opts}, nil
}

func (rp *RelyingParty) discover(ctx context.Context) (*gooidc.Provider, error) {
	rp.mu.Lock()
	defer rp.mu.Unlock()
	if rp.provider != nil {
		return rp.provider, nil
	}
	meta, err := discover(ctx, rp.client, rp.issuer)
	if err != nil {
		return nil, err
	}
	if meta.AuthorizationEndpoint == "" || meta.TokenEndpoint == "" {
		return nil, newError(ErrMisconfigured, errors.New("the discovery document lacks the authorization_endpoint or token_endpoint a browser sign-in needs"))
	}
	rp.provider, rp.meta = meta.provider(ctx, rp.client), meta
	return rp.provider, nil
}

// Check runs discovery now and reports what is wrong, for a start-up log
// line.
func (rp *RelyingParty) Check(ctx context.Context) error {
	_, err := rp.discover(ctx)
	return err
}

func (rp *RelyingParty) config(ctx context.Context, p *gooidc.Provider) (*oauth2.Config, error) {
	secret, err := rp.secret(ctx)
	if err != nil {
		return nil, fmt.Errorf("oidc: client secret: %w", err)
	}
	return &oauth2.Config{ClientID: rp.clientID, ClientSecret: secret, RedirectURL: rp.redirectURL,
		Endpoint: p.Endpoint(), Scopes: rp.opts.Scopes}, nil
}

// AuthCodeURL is where the browser goes to sign in: with state, nonce, the
// PKCE challenge of verifier (S256), acr_values when acr is set, and
// prompt=login when freshLogin asks the IdP not to reuse its own session
// (signing in with another account). A sign-in asking for an authentication
// context forces a fresh login too: most providers treat acr_values as a
// wish, and would otherwise answer from their session with the context the
// person already has, so the step-up would never happen.
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
	if freshLogin || acr != "" {
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
	claims, err := rp.opts.Claims.decode(payload)
	if err != nil || claims.Subject == "" {
		return Claims{}, "", fmt.Errorf("%w: claims: %v", ErrSignInRefused, err)
	}
	claims.ClientID = ""
	if p.UserInfoEndpoint() != "" {
		// Many providers release attributes at userinfo only (OpenID
		// Connect's default for the code flow): ask there too.
		info, err := p.UserInfo(gooidc.ClientContext(ctx, rp.client), oauth2.StaticTokenSource(tok))
		if err != nil {
			return Claims{}, "", newError(ErrProviderUnavailable, fmt.Errorf("userinfo: %w", err))
		}
		var infoPayload map[string]json.RawMessage
		if err := info.Claims(&infoPayload); err != nil {
			return Claims{}, "", fmt.Errorf("%w: userinfo: %v", ErrSignInRefused, err)
		}
		fromInfo, err := rp.opts.Claims.decode(infoPayload)
		if err != nil {
			return Claims{}, "", fmt.Errorf("%w: userinfo: %v", ErrSignInRefused, err)
		}
		if claims, err = claims.merge(fromInfo); err != nil {
			return Claims{}, "", fmt.Errorf("%w: %v", ErrSignInRefused, err)
		}
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
	endSession := rp.meta.EndSessionEndpoint
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

// VerifyLogoutToken checks a back-channel logout token (OpenID Connect
// Back-Channel Logout 1.0 section 2.6: signature, issuer, audience = this
// client, the logout event, no nonce, sub or sid) and returns whom it signs
// out: the subject, and the provider's session id when it names one.
func (rp *RelyingParty) VerifyLogoutToken(ctx context.Context, raw string) (sub, sid string, err error) {
	p, err := rp.discover(ctx)
	if err != nil {
		return "", "", err
	}
	if len(raw) > maxTokenBytes {
		return "", "", newError(ErrInvalidToken, errors.New("logout token too large"))
	}
	token, err := p.Verifier(&gooidc.Config{ClientID: rp.clientID}).VerifyLogout(ctx, raw)
	if err != nil {
		return "", "", newError(ErrInvalidToken, fmt.Errorf("logout token: %w", err))
	}
	return token.Subject, token.SessionID, nil
}
