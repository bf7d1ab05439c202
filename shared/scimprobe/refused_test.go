package scimprobe_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/edu-invite/invite/localstack/scimsp"
	"github.com/edu-invite/invite/shared/scimprobe"
)

// TestRefusedCredentialIsTheOnlyFinding: when the SP refuses the
// credential, the report says that and nothing about PATCH or filters,
// whatever the SP declares or hides before the refusal.
func TestRefusedCredentialIsTheOnlyFinding(t *testing.T) {
	sp := scimsp.New(scimsp.Options{BearerToken: "right-token"})
	// Each SP refuses a wrong token at /Users and /Groups; they differ in
	// what they say about /ServiceProviderConfig.
	cases := []struct {
		name       string
		membership string
		spc        func(w http.ResponseWriter, r *http.Request) bool
	}{
		{"refuses everywhere", "PATCH", func(http.ResponseWriter, *http.Request) bool { return false }},
		{"configuration not served", "PATCH", func(w http.ResponseWriter, r *http.Request) bool {
			http.NotFound(w, r)
			return true
		}},
		{"configuration open without PATCH", "PATCH", func(w http.ResponseWriter, r *http.Request) bool {
			w.Header().Set("Content-Type", "application/scim+json")
			_, _ = w.Write([]byte(`{"patch":{"supported":false},"filter":{"supported":false,"maxResults":0},"bulk":{"supported":false}}`))
			return true
		}},
		{"configuration open, PUT configured", "PUT", func(w http.ResponseWriter, r *http.Request) bool {
			w.Header().Set("Content-Type", "application/scim+json")
			_, _ = w.Write([]byte(`{"patch":{"supported":true},"filter":{"supported":true,"maxResults":10}}`))
			return true
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if strings.HasSuffix(r.URL.Path, "/ServiceProviderConfig") && tc.spc(w, r) {
					return
				}
				sp.Handler().ServeHTTP(w, r)
			}))
			defer srv.Close()
			p := &scimprobe.Prober{Policy: loopback}
			rep := p.Test(context.Background(), scimprobe.Connection{ID: "x", BaseURL: srv.URL, Membership: tc.membership,
				Credentials: scimprobe.Credentials{Method: "bearer", Token: "wrong-token"}})
			if rep.OK || !is(rep.CredentialsAccepted, false) || !strings.Contains(rep.Summary, "refuses the credentials") {
				t.Fatalf("report: %+v", rep)
			}
			for _, w := range rep.Warnings {
				if !strings.Contains(w, "plain http") {
					t.Errorf("warning beside the refused credential: %q", w)
				}
			}
			if rep.RecommendedMembership != "" {
				t.Errorf("recommends %s for an SP that refused the credential", rep.RecommendedMembership)
			}
		})
	}
}
