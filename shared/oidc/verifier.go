package oidc

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
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

// Verifier verifies the access tokens people and clients present to the API
// (RFC 9068 JWTs and, when configured, opaque tokens through RFC 7662
// introspection) for one issuer and one audience. It is safe for concurrent
// use; create one per process and reuse it, because it caches the discovery
// document, the JWKS and introspection answers.
type Verifier struct {
	issuer   string
	audience string
	client   *http.Client
	opts     VerifierOptions

	retryAfter time.Duration
	now        func() time.Time

	mu            sync.Mutex
	tokens        *gooidc.IDTokenVerifier // nil until discovery succeeds
	meta          metadata
	failedAt      time.Time
	discoveryFail error

	introspected *introspectionCache
}

// VerifierOptions are the choices an institution's provider may need.
type VerifierOptions struct {
	// Claims names the claims carrying each attribute.
	Claims ClaimNames
	// IntrospectionClientID, when set, turns on RFC 7662 introspection of
	// tokens that are not JWTs, authenticating with this client id and the
	// secret IntrospectionSecret returns.
	IntrospectionClientID string
	IntrospectionSecret   func(context.Context) (string, error)
	// IntrospectionCache is how long an active token's answer is reused
	// (never past the token's expiry); zero means 30 seconds.
	IntrospectionCache time.Duration
}

// NewVerifier returns a Verifier for tokens whose "iss" is exactly issuerURL
// and whose "aud" contains audience, with the default options. It does no
// network I/O.
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
	return NewVerifierWithOptions(ctx, issuerURL, audience, VerifierOptions{})
}

// NewVerifierWithOptions is NewVerifier with options.
func NewVerifierWithOptions(ctx context.Context, issuerURL, audience string, opts VerifierOptions) (*Verifier, error) {
	u, err := url.Parse(issuerURL)
	if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
		return nil, fmt.Errorf("oidc: issuer URL %q is not an absolute http(s) URL", issuerURL)
	}
	if audience == "" {
		return nil, errors.New("oidc: audience is required")
	}
	if opts.IntrospectionClientID != "" && opts.IntrospectionSecret == nil {
		return nil, errors.New("oidc: introspection needs the client's secret")
	}
	if opts.IntrospectionCache <= 0 {
		opts.IntrospectionCache = 30 * time.Second
	}
	client, ok := ctx.Value(oauth2.HTTPClient).(*http.Client)
	if !ok || client == nil {
		client = &http.Client{Timeout: httpTimeout}
	}
	return &Verifier{
		issuer:       issuerURL,
		audience:     audience,
		client:       client,
		opts:         opts,
		retryAfter:   discoveryRetryAfter,
		now:          time.Now,
		introspected: newIntrospectionCache(),
	}, nil
}

// Check runs discovery now and reports what is wrong, for a start-up log
// line: a misconfiguration should be found before the first caller does.
func (v *Verifier) Check(ctx context.Context) error {
	_, err := v.discover(ctx)
	if err == nil && v.opts.IntrospectionClientID != "" && v.meta.IntrospectionEndpoint == "" {
		return newError(ErrMisconfigured, errors.New("introspection is configured but the discovery document has no introspection_endpoint"))
	}
	return err
}

// Verify checks rawToken and returns its claims. Errors match ErrInvalidToken
// (ErrTokenExpired, ErrNotAccessToken) or ErrProviderUnavailable
// (ErrMisconfigured); see errors.go. A token of a client without a person
// (client credentials) verifies too: its Claims say so (IsClient).
func (v *Verifier) Verify(ctx context.Context, rawToken string) (Claims, error) {
	if rawToken == "" {
		return Claims{}, newError(ErrInvalidToken, errors.New("empty token"))
	}
	if len(rawToken) > maxTokenBytes {
		return Claims{}, newError(ErrInvalidToken, errors.New("token too large"))
	}
	tokens, err := v.discover(ctx)
	if err != nil {
		return Claims{}, err
	}
	typ, isJWT := jwtType(rawToken)
	if !isJWT {
		if v.opts.IntrospectionClientID == "" {
			return Claims{}, newError(ErrInvalidToken, errors.New("not a JWT, and introspection of opaque tokens is not configured"))
		}
		return v.introspect(ctx, rawToken)
	}
	// RFC 9068 section 4: a JWT access token says so in its header; an ID
	// token (typ JWT or none) signed by the same provider for a client whose
	// id is the audience must not pass for one.
	if !strings.EqualFold(typ, "at+jwt") && !strings.EqualFold(typ, "application/at+jwt") {
		return Claims{}, newError(ErrNotAccessToken, fmt.Errorf("JWT typ is %q, not at+jwt", typ))
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
	claims, err := v.opts.Claims.decode(payload)
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
	meta, err := discover(ctx, v.client, v.issuer)
	if err != nil {
		// A caller that gave up (client disconnect, deadline) says nothing
		// about the IdP, so it must not hold back the next request.
		if ctx.Err() == nil {
			v.discoveryFail, v.failedAt = err, v.now()
		}
		return nil, err
	}
	keys := gooidc.NewRemoteKeySet(gooidc.ClientContext(context.Background(), v.client), meta.JWKSURI)
	v.tokens = gooidc.NewVerifier(v.issuer, fetchReportingKeySet{remote: keys}, &gooidc.Config{
		ClientID:             v.audience,
		SupportedSigningAlgs: asymmetricAlgorithms(meta.IDTokenAlgorithms),
	})
	v.meta = meta
	v.discoveryFail = nil
	return v.tokens, nil
}

// jwtType is the typ of a JWT's header, and whether rawToken is a JWT at
// all (three segments whose first is a JSON object).
func jwtType(rawToken string) (string, bool) {
	if strings.Count(rawToken, ".") != 2 {
		return "", false
	}
	head, _, _ := strings.Cut(rawToken, ".")
	decoded, err := base64.RawURLEncoding.DecodeString(head)
	if err != nil {
		return "", false
	}
	var header struct {
		Typ string `json:"typ"`
	}
	if err := json.Unmarshal(decoded, &header); err != nil {
		return "", false
	}
	return header.Typ, true
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
