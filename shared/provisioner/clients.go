package provisioner

import (
	"context"
	"net/http"
	"sync"
	"time"

	"github.com/edu-invite/invite/shared/config"
	"github.com/edu-invite/invite/shared/domain"
	"github.com/edu-invite/invite/shared/outbound"
	"github.com/edu-invite/invite/shared/scim"
)

// SecretResolver resolves the credential reference of a connection, within
// the references that connection may use (*secrets.ConnectionSecrets).
type SecretResolver interface {
	Resolve(ctx context.Context, connectionID, ref string) (string, error)
}

// Targets builds SCIM clients from the configuration, resolving credentials
// when a delivery needs them (the resolver caches), so that a rotated
// secret is picked up without a redeploy.
type Targets struct {
	Registry config.Lookup
	Secrets  SecretResolver
	// Outbound is the address policy every call to an SP and its token
	// endpoint is dialled through (the zero value: no internal address).
	Outbound outbound.Policy
	// Transport replaces the HTTP transport under the per-SP guards (nil:
	// one of Outbound).
	Transport http.RoundTripper
	// Breaker tunes the per-SP circuit breakers (zero: the defaults).
	Breaker BreakerPolicy
	// GuardStates shares each SP's rate window and breaker with every
	// other instance (the table); nil keeps them in this process only.
	GuardStates GuardStates

	mu     sync.Mutex
	guards map[string]*spGuard
	memory memoryGuardStates
	oauth  oauthTokens
}

// guard returns the SP's rate limit and circuit breaker, shared by every
// delivery this process makes to it and, through GuardStates, by every
// other instance.
func (t *Targets) guard(spID string, ratePerSecond float64) *spGuard {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.guards == nil {
		t.guards = map[string]*spGuard{}
	}
	g, ok := t.guards[spID]
	if !ok || g.rate != ratePerSecond {
		// A changed rate applies at once; the connections are kept.
		next := t.Transport
		switch {
		case ok:
			next = g.next
		case next == nil:
			next = spTransport(t.Outbound)
		}
		var states GuardStates = &t.memory
		if t.GuardStates != nil {
			states = t.GuardStates
		}
		g = newSPGuard(next, spID, ratePerSecond, states)
		t.Breaker.apply(g)
		t.guards[spID] = g
	}
	return g
}

// Client returns the client and settings of an SP.
func (t *Targets) Client(ctx context.Context, spID string) (SCIMClient, domain.ServiceProvider, error) {
	target, ok := t.Registry.Target(spID)
	if !ok {
		return nil, domain.ServiceProvider{}, permanent("SP %q is not in the configuration", spID)
	}
	creds := scim.Credentials{Method: scim.AuthMethod(target.Auth.Method), Username: target.Auth.Username}
	var err error
	switch target.Auth.Method {
	case "basic":
		creds.Password, err = t.Secrets.Resolve(ctx, spID, target.Auth.Password)
	case "bearer":
		creds.Token, err = t.Secrets.Resolve(ctx, spID, target.Auth.Token)
	case "oauth2":
		// OAuth 2.0 client credentials: the access token is sent as a
		// bearer token; a refused token request is retried like a 5xx.
		var secret string
		if secret, err = t.Secrets.Resolve(ctx, spID, target.Auth.ClientSecret); err == nil {
			creds.Method = scim.AuthBearer
			creds.Token, err = t.oauth.token(ctx, spID, target.Auth, secret, t.Outbound.Client(scim.DefaultTimeout))
		}
	}
	if err != nil {
		// A missing secret is an operator's job to fix; keep retrying until
		// it is (the message dead-letters after the queue's receive count).
		return nil, domain.ServiceProvider{}, err
	}
	timeout := scim.DefaultTimeout
	if target.TimeoutSeconds > 0 {
		timeout = time.Duration(target.TimeoutSeconds) * time.Second
	}
	hc := &http.Client{Timeout: timeout, Transport: &refreshingAuth{next: t.guard(spID, target.RatePerSecond), // refresh.go
		fresh: func(ctx context.Context) (string, error) {
			return t.freshAuthorization(ctx, target, t.Outbound.Client(scim.DefaultTimeout))
		}},
		// A redirect would carry the request, and the credential on the
		// same host, to an address nobody configured.
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	c := scim.NewClient(scim.Target{ID: spID, BaseURL: target.BaseURL, Version: target.Version, Credentials: creds,
		MaxPatchMembers: target.MaxPatchMembers}, hc)
	return c, target.SP, nil
}
