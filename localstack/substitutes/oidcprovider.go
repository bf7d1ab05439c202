package substitutes

import (
	"context"
	"encoding/json"
	"fmt"
)

// OIDCProvider is npm oidc-provider (a certified OpenID Provider) run by node
// through localstack/oidc-provider-server.mjs, for tests that must hold with
// a standard provider and not only with the development IdP.
type OIDCProvider struct {
	// Issuer is the provider's issuer, e.g. http://127.0.0.1:41234.
	Issuer string

	proc *nodeProcess
}

// OIDCProviderConfig is how the provider behaves; the launcher script
// documents each field.
type OIDCProviderConfig struct {
	ClaimsInIDToken   bool                      `json:"claimsInIdToken"`
	AccessTokenFormat string                    `json:"accessTokenFormat,omitempty"` // "jwt" (default) or "opaque"
	APIAudience       string                    `json:"apiAudience"`
	APIScope          string                    `json:"apiScope,omitempty"`
	ACRValues         []string                  `json:"acrValues,omitempty"`
	Scopes            map[string][]string       `json:"scopes,omitempty"`
	Accounts          map[string]map[string]any `json:"accounts"`
	Clients           []map[string]any          `json:"clients"`
	WebClients        []string                  `json:"webClients,omitempty"`
}

// StartOIDCProvider starts the provider on a free loopback port.
func StartOIDCProvider(ctx context.Context, cfg OIDCProviderConfig) (*OIDCProvider, error) {
	doc, err := json.Marshal(cfg)
	if err != nil {
		return nil, fmt.Errorf("substitutes: oidc-provider configuration: %w", err)
	}
	p, err := startNode(ctx, "oidc-provider", "oidc-provider-server.mjs", "", "/.well-known/openid-configuration",
		"OIDC_PROVIDER_CONFIG="+string(doc))
	if err != nil {
		return nil, err
	}
	return &OIDCProvider{Issuer: p.url, proc: p}, nil
}

// Output is what the provider wrote (its errors), for a failing test's log.
func (p *OIDCProvider) Output() string { return p.proc.output.String() }

// Close stops the provider.
func (p *OIDCProvider) Close() error { return p.proc.Close() }
