package oidc

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"sync"
	"time"

	gooidc "github.com/coreos/go-oidc/v3/oidc"
	"golang.org/x/oauth2"
)

const (
	// httpTimeout bounds discovery and JWKS requests. go-oidc fetches keys in
	// a background request that ignores the caller's cancellation; without a
	// timeout a hung IdP would wedge key refresh for the life of the process.
	httpTimeout = 10 * time.Second

	// discoveryRetryAfter is how long a failed discovery is remembered before
	// the next request tries again, so an IdP outage costs each request one
	// fast 503 rather than one slow network attempt.
	discoveryRetryAfter = 2 * time.Second

	// maxTokenBytes refuses absurd input before any parsing; real access
	// tokens are a few KiB.
	maxTokenBytes = 16 << 10
)

// Verifier verifies bearer tokens of one issuer for one audience. It is safe
// for concurrent use; create one per process and reuse it, because it caches
// the discovery document and the JWKS.
type Verifier struct {
	issuer   string
	audience string
	client   *http.Client

	retryAfter time.Duration
	now        func() time.Time

	mu            sync.Mutex
	tokens        *gooidc.IDTokenVerifier // nil until discovery succeeds
	failedAt      time.Time
	discoveryFail error
}

// NewVerifier returns a Verifier for tokens whose "iss" is exactly issuerURL
// and whose "aud" contains audience. It does no network I/O.
//
// Discovery is lazy, done by the first Verify and cached, and retried on a
// later request when it fails. On AWS Lambda this keeps the cold start free of
// a round trip to the IdP, and an IdP that is down at start-up does not kill
// the process (which Lambda would retry at full cold-start cost): requests
// get ErrProviderUnavailable until the IdP is back.
//
// ctx only carries configuration: an *http.Client set with go-oidc's
// ClientContext (the golang.org/x/oauth2 HTTPClient key) is used for discovery
// and JWKS; otherwise a client with a 10s timeout is used.
func NewVerifier(ctx context.Context, issuerURL, audience string) (*Verifier, error) {
	u, err := url.Parse(issuerURL)
	if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
		return nil, fmt.Errorf("oidc: issuer URL %q is not an absolute http(s) URL", issuerURL)
	}
	if audience == "" {
		return nil, errors.New("oidc: audience is required")
	}
	client, ok := ctx.Value(oauth2.HTTPClient).(*http.Client)
	if !ok || client == nil {
		client = &http.Client{Timeout: httpTimeout}
	}
	return &Verifier{
		issuer:     issuerURL,
		audience:   audience,
		client:     client,
		retryAfter: discoveryRetryAfter,
		now:        time.Now,
	}, nil
}

// Verify checks rawToken and returns its claims. Errors match ErrInvalidToken
// (and ErrTokenExpired) or ErrProviderUnavailable; see errors.go.
func (v *Verifier) Verify(ctx context.Context, rawToken string) (Claims, error) {
	if rawToken == "" {
		return Claims{}, newError(ErrInvalidToken, errors.New("empty token"))
	}
	if len(rawToken) > maxTokenBytes {
		return Claims{}, newError(ErrInvalidToken, errors.New("token too large"))
	}
	tokens, err := v.discover(ctx)
	if err != nil {
		return Claims{}, newError(ErrProviderUnavailable, err)
	}

	report := &keyFetchReport{}
	token, err := tokens.Verify(context.WithValue(ctx, keyFetchReportKey{}, report), rawToken)
	var expired *gooidc.TokenExpiredError
	switch {
	case err == nil:
	case report.err != nil:
		return Claims{}, newError(ErrProviderUnavailable, report.err)
	case errors.As(err, &expired):
		return Claims{}, newError(ErrTokenExpired, err)
	default:
		return Claims{}, newError(ErrInvalidToken, err)
	}

	var payload map[string]json.RawMessage
	if err := token.Claims(&payload); err != nil {
		return Claims{}, newError(ErrInvalidToken, fmt.Errorf("claims: %w", err))
	}
	claims, err := decodeClaims(payload)
	if err != nil {
		return Claims{}, newError(ErrInvalidToken, err)
	}
	if claims.Subject == "" {
		return Claims{}, newError(ErrInvalidToken, errors.New("missing sub"))
	}
	return claims, nil
}

// discover returns the token verifier, running discovery on first use. The
// mutex makes concurrent first requests share one discovery rather than each
// hitting the IdP; the HTTP timeout bounds how long they wait.
func (v *Verifier) discover(ctx context.Context) (*gooidc.IDTokenVerifier, error) {
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.tokens != nil {
		return v.tokens, nil
	}
	if v.discoveryFail != nil && v.now().Sub(v.failedAt) < v.retryAfter {
		return nil, v.discoveryFail
	}

	provider, err := gooidc.NewProvider(gooidc.ClientContext(ctx, v.client), v.issuer)
	if err != nil {
		// A caller that gave up (client disconnect, deadline) says nothing
		// about the IdP, so it must not hold back the next request.
		if ctx.Err() == nil {
			v.discoveryFail, v.failedAt = fmt.Errorf("discovery: %w", err), v.now()
		}
		return nil, fmt.Errorf("discovery: %w", err)
	}
	var metadata struct {
		JWKSURI string   `json:"jwks_uri"`
		Algs    []string `json:"id_token_signing_alg_values_supported"`
	}
	if err := provider.Claims(&metadata); err != nil || metadata.JWKSURI == "" {
		v.discoveryFail, v.failedAt = errors.New("discovery: no jwks_uri"), v.now()
		return nil, v.discoveryFail
	}

	// The key set outlives this request, so it gets a background context that
	// only carries the HTTP client.
	keys := gooidc.NewRemoteKeySet(gooidc.ClientContext(context.Background(), v.client), metadata.JWKSURI)
	v.tokens = gooidc.NewVerifier(v.issuer, fetchReportingKeySet{remote: keys}, &gooidc.Config{
		ClientID:             v.audience,
		SupportedSigningAlgs: asymmetricAlgorithms(metadata.Algs),
	})
	v.discoveryFail = nil
	return v.tokens, nil
}

// asymmetricAlgorithms keeps the advertised algorithms a public JWKS can
// verify. Empty means go-oidc's default, RS256 (the one OIDC mandates).
// "none" and HMAC algorithms are never accepted, whatever the IdP advertises.
func asymmetricAlgorithms(advertised []string) []string {
	var algs []string
	for _, alg := range advertised {
		switch alg {
		case gooidc.RS256, gooidc.RS384, gooidc.RS512,
			gooidc.ES256, gooidc.ES384, gooidc.ES512,
			gooidc.PS256, gooidc.PS384, gooidc.PS512, gooidc.EdDSA:
			algs = append(algs, alg)
		}
	}
	return algs
}
