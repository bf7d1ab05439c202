package oidc

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"time"
)

// maxCachedIntrospections bounds the cache: past it, expired answers are
// dropped, and if that is not enough, all of them.
const maxCachedIntrospections = 10000

// introspect asks the provider about an opaque token (RFC 7662). Only an
// active token issued by this issuer for this API's audience is accepted; a
// token without an audience is one for the provider's userinfo, not for the
// API. Answers for active tokens are cached briefly, keyed by the token's
// digest, so a burst of calls costs one round trip.
func (v *Verifier) introspect(ctx context.Context, rawToken string) (Claims, error) {
	key := sha256.Sum256([]byte(rawToken))
	now := v.now()
	if c, ok := v.introspected.get(key, now); ok {
		return c, nil
	}
	v.mu.Lock()
	endpoint := v.meta.IntrospectionEndpoint
	v.mu.Unlock()
	if endpoint == "" {
		return Claims{}, newError(ErrMisconfigured, errors.New("introspection is configured but the discovery document has no introspection_endpoint"))
	}
	secret, err := v.opts.IntrospectionSecret(ctx)
	if err != nil {
		return Claims{}, newError(ErrProviderUnavailable, fmt.Errorf("introspection client secret: %w", err))
	}
	form := url.Values{"token": {rawToken}, "token_type_hint": {"access_token"}}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, endpoint, strings.NewReader(form.Encode()))
	if err != nil {
		return Claims{}, newError(ErrMisconfigured, fmt.Errorf("introspection endpoint: %w", err))
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Accept", "application/json")
	// RFC 6749 section 2.3.1: the client id and secret are form-encoded
	// before they go into the Basic header.
	req.SetBasicAuth(url.QueryEscape(v.opts.IntrospectionClientID), url.QueryEscape(secret))
	resp, err := v.client.Do(req)
	if err != nil {
		return Claims{}, newError(ErrProviderUnavailable, fmt.Errorf("introspection: %w", err))
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	switch {
	case err != nil:
		return Claims{}, newError(ErrProviderUnavailable, fmt.Errorf("introspection: %w", err))
	case resp.StatusCode == http.StatusUnauthorized || resp.StatusCode == http.StatusForbidden:
		return Claims{}, newError(ErrMisconfigured, fmt.Errorf("introspection refused this service's client credentials (%s)", resp.Status))
	case resp.StatusCode != http.StatusOK:
		return Claims{}, newError(ErrProviderUnavailable, fmt.Errorf("introspection answered %s", resp.Status))
	}
	var payload map[string]json.RawMessage
	if err := json.Unmarshal(body, &payload); err != nil {
		return Claims{}, newError(ErrProviderUnavailable, fmt.Errorf("introspection answer is not JSON: %v", err))
	}
	var meta struct {
		Active bool     `json:"active"`
		Issuer string   `json:"iss"`
		Aud    audience `json:"aud"`
		Exp    int64    `json:"exp"`
	}
	if err := json.Unmarshal(body, &meta); err != nil {
		return Claims{}, newError(ErrInvalidToken, fmt.Errorf("introspection answer: %v", err))
	}
	switch {
	case !meta.Active:
		return Claims{}, newError(ErrInvalidToken, errors.New("introspection: token not active"))
	case meta.Issuer != "" && meta.Issuer != v.issuer:
		return Claims{}, newError(ErrInvalidToken, fmt.Errorf("introspection: issuer %q", meta.Issuer))
	case !slices.Contains(meta.Aud, v.audience):
		return Claims{}, newError(ErrNotAccessToken, errors.New("introspection: the token's audience is not this API"))
	case meta.Exp != 0 && !now.Before(time.Unix(meta.Exp, 0)):
		return Claims{}, newError(ErrTokenExpired, errors.New("introspection: token expired"))
	}
	claims, err := v.opts.Claims.decode(payload)
	if err != nil {
		return Claims{}, newError(ErrInvalidToken, err)
	}
	if claims.Subject == "" && claims.ClientID == "" {
		return Claims{}, newError(ErrInvalidToken, errors.New("introspection: neither sub nor client_id"))
	}
	until := now.Add(v.opts.IntrospectionCache)
	if meta.Exp != 0 && time.Unix(meta.Exp, 0).Before(until) {
		until = time.Unix(meta.Exp, 0)
	}
	v.introspected.put(key, claims, until, now)
	return claims, nil
}

// audience reads "aud" as a string or a list of strings.
type audience []string

func (a *audience) UnmarshalJSON(b []byte) error {
	var one string
	if err := json.Unmarshal(b, &one); err == nil {
		*a = []string{one}
		return nil
	}
	var many []string
	if err := json.Unmarshal(b, &many); err != nil {
		return err
	}
	*a = many
	return nil
}

type introspectionCache struct {
	mu      sync.Mutex
	entries map[[32]byte]cachedClaims
}

type cachedClaims struct {
	claims Claims
	until  time.Time
}

func newIntrospectionCache() *introspectionCache {
	return &introspectionCache{entries: map[[32]byte]cachedClaims{}}
}

func (c *introspectionCache) get(key [32]byte, now time.Time) (Claims, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.entries[key]
	if !ok || !now.Before(e.until) {
		return Claims{}, false
	}
	return e.claims, true
}

func (c *introspectionCache) put(key [32]byte, claims Claims, until, now time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.entries) >= maxCachedIntrospections {
		for k, e := range c.entries {
			if !now.Before(e.until) {
				delete(c.entries, k)
			}
		}
		if len(c.entries) >= maxCachedIntrospections {
			clear(c.entries)
		}
	}
	c.entries[key] = cachedClaims{claims: claims, until: until}
}
