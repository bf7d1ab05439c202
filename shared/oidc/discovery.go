package oidc

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"

	gooidc "github.com/coreos/go-oidc/v3/oidc"
)

// metadata is the part of a provider's discovery document (OpenID Connect
// Discovery 1.0, RFC 8414) this service uses.
type metadata struct {
	Issuer                string   `json:"issuer"`
	AuthorizationEndpoint string   `json:"authorization_endpoint"`
	TokenEndpoint         string   `json:"token_endpoint"`
	UserinfoEndpoint      string   `json:"userinfo_endpoint"`
	JWKSURI               string   `json:"jwks_uri"`
	EndSessionEndpoint    string   `json:"end_session_endpoint"`
	IntrospectionEndpoint string   `json:"introspection_endpoint"`
	IDTokenAlgorithms     []string `json:"id_token_signing_alg_values_supported"`
}

// discover reads the discovery document of issuer. An answer that arrives
// but is wrong (not found, not JSON, another issuer, no jwks_uri) is a
// misconfiguration (ErrMisconfigured, which names what is wrong); only a
// provider that cannot be reached or fails (5xx) is ErrProviderUnavailable.
func discover(ctx context.Context, client *http.Client, issuer string) (metadata, error) {
	where := strings.TrimSuffix(issuer, "/") + "/.well-known/openid-configuration"
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, where, nil)
	if err != nil {
		return metadata{}, newError(ErrMisconfigured, fmt.Errorf("discovery address %q: %w", where, err))
	}
	req.Header.Set("Accept", "application/json")
	resp, err := client.Do(req)
	if err != nil {
		return metadata{}, newError(ErrProviderUnavailable, fmt.Errorf("discovery: %w", err))
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if err != nil {
		return metadata{}, newError(ErrProviderUnavailable, fmt.Errorf("discovery: %w", err))
	}
	switch {
	case resp.StatusCode >= 500:
		return metadata{}, newError(ErrProviderUnavailable, fmt.Errorf("discovery at %s answered %s", where, resp.Status))
	case resp.StatusCode != http.StatusOK:
		return metadata{}, newError(ErrMisconfigured, fmt.Errorf("no discovery document at %s (%s): is OIDC_ISSUER the provider's issuer?", where, resp.Status))
	}
	var m metadata
	if err := json.Unmarshal(body, &m); err != nil {
		return metadata{}, newError(ErrMisconfigured, fmt.Errorf("discovery document at %s is not JSON: %v", where, err))
	}
	if m.Issuer != issuer {
		hint := ""
		if strings.TrimSuffix(m.Issuer, "/") == strings.TrimSuffix(issuer, "/") {
			hint = " (they differ only by a trailing slash, which counts: tokens name the issuer exactly)"
		}
		return metadata{}, newError(ErrMisconfigured, fmt.Errorf("the provider's issuer is %q but OIDC_ISSUER is %q%s", m.Issuer, issuer, hint))
	}
	if m.JWKSURI == "" {
		return metadata{}, newError(ErrMisconfigured, errors.New("the discovery document has no jwks_uri"))
	}
	return m, nil
}

// provider is go-oidc's provider built from the discovery document already
// read, so it is not fetched twice.
func (m metadata) provider(ctx context.Context, client *http.Client) *gooidc.Provider {
	cfg := gooidc.ProviderConfig{IssuerURL: m.Issuer, AuthURL: m.AuthorizationEndpoint, TokenURL: m.TokenEndpoint,
		UserInfoURL: m.UserinfoEndpoint, JWKSURL: m.JWKSURI, Algorithms: asymmetricAlgorithms(m.IDTokenAlgorithms)}
	// The key set outlives the request that caused discovery: a background
	// context carrying only the HTTP client.
	return cfg.NewProvider(gooidc.ClientContext(context.Background(), client))
}
