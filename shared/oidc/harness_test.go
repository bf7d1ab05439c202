package oidc_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"github.com/edu-invite/invite/localstack/idp"
	"github.com/edu-invite/invite/shared/oidc"
)

const (
	testAudience = "invite-api"
	tokenTTL     = 5 * time.Minute
)

// servedIdP is an IdP mounted under /idp on a test server, with switches to
// make its endpoints fail and a count of JWKS fetches.
type servedIdP struct {
	*idp.IdP
	server        *httptest.Server
	failDiscovery atomic.Bool
	failJWKS      atomic.Bool
	jwksFetches   atomic.Int64
}

func serveIdP(t *testing.T) *servedIdP {
	t.Helper()
	server := httptest.NewUnstartedServer(nil)
	provider, err := idp.New("http://" + server.Listener.Addr().String() + "/idp")
	if err != nil {
		t.Fatal(err)
	}
	s := &servedIdP{IdP: provider, server: server}
	mounted := http.StripPrefix("/idp", provider.Handler())
	mux := http.NewServeMux()
	mux.Handle("/idp/", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/idp/.well-known/openid-configuration":
			if s.failDiscovery.Load() {
				http.Error(w, "down", http.StatusServiceUnavailable)
				return
			}
		case "/idp/jwks":
			s.jwksFetches.Add(1)
			if s.failJWKS.Load() {
				http.Error(w, "down", http.StatusInternalServerError)
				return
			}
		}
		mounted.ServeHTTP(w, r)
	}))
	server.Config.Handler = mux
	server.Start()
	t.Cleanup(server.Close)
	return s
}

func newVerifier(t *testing.T, issuer string) *oidc.Verifier {
	t.Helper()
	v, err := oidc.NewVerifier(context.Background(), issuer, testAudience)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func mint(t *testing.T, p *idp.IdP, claims map[string]any) string {
	t.Helper()
	token, err := p.Mint(claims, testAudience, tokenTTL)
	if err != nil {
		t.Fatal(err)
	}
	return token
}
