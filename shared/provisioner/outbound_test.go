package provisioner_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"sync/atomic"
	"testing"

	"github.com/edu-invite/invite/shared/config"
	"github.com/edu-invite/invite/shared/outbound"
	"github.com/edu-invite/invite/shared/provisioner"
	"github.com/edu-invite/invite/shared/scim"
	"github.com/edu-invite/invite/shared/secrets"
)

// loopbackPolicy lets tests call their SPs on 127.0.0.1 over http, as the
// local stack's allow-list does.
var loopbackPolicy = outbound.Policy{AllowHTTP: true,
	Allowed: outbound.Allowlist{Prefixes: []netip.Prefix{netip.MustParsePrefix("127.0.0.1/32")}}}

// connectionSecrets resolves connections' credentials under the operator
// prefixes given (and their own vault entries).
func connectionSecrets(r *secrets.Resolver, prefixes ...string) secrets.ConnectionSecrets {
	return secrets.ConnectionSecrets{Resolver: r, Scope: secrets.Scope{Prefixes: prefixes}}
}

// TestDeliveriesReachOnlyAllowedAddressesWithAllowedCredentials: a
// delivery to an internal address is refused when it is dialled (whatever
// the configuration let through), a token endpoint on one gets no client
// secret, and a connection whose reference points at the process
// environment or another connection's secret gets no credential at all.
func TestDeliveriesReachOnlyAllowedAddressesWithAllowedCredentials(t *testing.T) {
	var hits atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"access_token":"tok","token_type":"Bearer","id":"1"}`))
	}))
	defer srv.Close()
	t.Setenv("BOOTSTRAP_API_TOKEN", "bootstrap-token-value")
	t.Setenv("SCIM_SP_TOKEN", "sp-token-value")
	closed := outbound.Policy{AllowHTTP: true}
	tests := []struct {
		name    string
		policy  outbound.Policy
		auth    config.AuthDoc
		wantErr func(error) bool
	}{
		{"internal SP address", closed, config.AuthDoc{Method: "bearer", Token: "env:SCIM_SP_TOKEN"}, outbound.IsRefused},
		{"internal token endpoint", closed, config.AuthDoc{Method: "oauth2", TokenURL: srv.URL + "/token", ClientID: "c", ClientSecret: "env:SCIM_SP_TOKEN"}, outbound.IsRefused},
		{"process environment", loopbackPolicy, config.AuthDoc{Method: "bearer", Token: "env:BOOTSTRAP_API_TOKEN"},
			func(err error) bool { return errors.Is(err, secrets.ErrReferenceNotAllowed) }},
		{"another connection's vault entry", loopbackPolicy, config.AuthDoc{Method: "basic", Username: "u", Password: "secretsmanager:" + secrets.DefaultConnectionPrefix + "other-sp#password"},
			func(err error) bool { return errors.Is(err, secrets.ErrReferenceNotAllowed) }},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			hits.Store(0)
			reg, err := config.New(config.Document{Provisionings: []config.ProvisioningDoc{{ID: "sp", BaseURL: srv.URL, Auth: tc.auth}}})
			if err != nil {
				t.Fatal(err)
			}
			targets := &provisioner.Targets{Registry: reg, Outbound: tc.policy, Secrets: connectionSecrets(secrets.NewResolver(nil, 0), "env:SCIM_SP_")}
			c, _, err := targets.Client(context.Background(), "sp")
			if err == nil {
				_, err = c.CreateUser(context.Background(), scim.User{UserName: "guest@example.org"})
			}
			if !tc.wantErr(err) {
				t.Fatalf("err = %v", err)
			}
			if hits.Load() != 0 {
				t.Fatalf("the listener received %d requests", hits.Load())
			}
		})
	}
}
