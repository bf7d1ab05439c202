package idp

import (
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"sync"
	"time"

	jose "github.com/go-jose/go-jose/v4"
)

// publishedKeys is how many keys the JWKS lists: the current one and the one
// before it, so tokens minted just before a Rotate still verify.
const publishedKeys = 2

// IdP is an in-process OIDC provider. It is safe for concurrent use.
type IdP struct {
	issuer string

	// DefaultAudience is put in tokens from POST /token when the request names
	// no aud. Set it before serving; it is not guarded.
	DefaultAudience string

	mu   sync.RWMutex
	keys []signingKey // newest first; keys[0] signs

	flow browserFlow // the authorization code flow (authorize.go)
}

// New returns an IdP that will be served at issuerURL (for example
// http://127.0.0.1:8080/idp). The URL is the exact "iss" of every token and
// of the discovery document, so verifiers must be configured with the same
// string. A signing key is generated here.
func New(issuerURL string) (*IdP, error) {
	u, err := url.Parse(issuerURL)
	if err != nil {
		return nil, fmt.Errorf("idp: issuer URL: %w", err)
	}
	if (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.RawQuery != "" || u.Fragment != "" {
		return nil, errors.New("idp: issuer URL must be an absolute http(s) URL without query or fragment")
	}
	key, err := newSigningKey()
	if err != nil {
		return nil, err
	}
	return &IdP{issuer: issuerURL, keys: []signingKey{key}}, nil
}

// Issuer is the issuer URL the IdP was created with.
func (p *IdP) Issuer() string { return p.issuer }

// Rotate generates a new signing key used for every token from now on. The
// previous key stays in the JWKS so tokens it signed remain verifiable, as a
// real IdP does during a key rollover.
func (p *IdP) Rotate() error {
	key, err := newSigningKey()
	if err != nil {
		return err
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.keys = append([]signingKey{key}, p.keys...)
	if len(p.keys) > publishedKeys {
		p.keys = p.keys[:publishedKeys]
	}
	return nil
}

// Mint returns a signed JWT access token carrying claims. iss, aud, iat, exp
// and jti are filled in by the IdP (aud from audience, exp from ttl, which may
// be negative to mint an already expired token); a value for any of them in
// claims wins, which tests use to forge tokens the verifier must refuse.
func (p *IdP) Mint(claims map[string]any, audience string, ttl time.Duration) (string, error) {
	return p.mint("at+jwt", claims, audience, ttl)
}

// MintIDToken is Mint for an ID token (typ JWT), which the API must refuse
// as a credential (RFC 9068: only at+jwt is an access token).
func (p *IdP) MintIDToken(claims map[string]any, audience string, ttl time.Duration) (string, error) {
	return p.mint("JWT", claims, audience, ttl)
}

func (p *IdP) mint(typ string, claims map[string]any, audience string, ttl time.Duration) (string, error) {
	now := time.Now()
	jti, err := randomID()
	if err != nil {
		return "", err
	}
	payload := map[string]any{
		"iss": p.issuer,
		"iat": now.Unix(),
		"exp": now.Add(ttl).Unix(),
		"jti": jti,
	}
	if audience != "" {
		payload["aud"] = audience
	}
	for name, value := range claims {
		payload[name] = value
	}
	body, err := json.Marshal(payload)
	if err != nil {
		return "", fmt.Errorf("idp: encode claims: %w", err)
	}

	p.mu.RLock()
	key := p.keys[0]
	p.mu.RUnlock()
	signer, err := key.signer(typ)
	if err != nil {
		return "", fmt.Errorf("idp: signer: %w", err)
	}
	signed, err := signer.Sign(body)
	if err != nil {
		return "", fmt.Errorf("idp: sign: %w", err)
	}
	return signed.CompactSerialize()
}

// jwks is the public half of the published keys.
func (p *IdP) jwks() jose.JSONWebKeySet {
	p.mu.RLock()
	defer p.mu.RUnlock()
	set := jose.JSONWebKeySet{Keys: make([]jose.JSONWebKey, 0, len(p.keys))}
	for _, k := range p.keys {
		set.Keys = append(set.Keys, k.public)
	}
	return set
}

// endpoint is the absolute URL of a path served by Handler.
func (p *IdP) endpoint(path string) string {
	return strings.TrimSuffix(p.issuer, "/") + path
}

func randomID() (string, error) {
	b := make([]byte, 16)
	if _, err := rand.Read(b); err != nil {
		return "", fmt.Errorf("idp: random: %w", err)
	}
	return base64.RawURLEncoding.EncodeToString(b), nil
}
