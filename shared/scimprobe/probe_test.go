package scimprobe_test

import (
	"context"
	"encoding/json"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/edu-invite/invite/localstack/scimsp"
	"github.com/edu-invite/invite/shared/outbound"
	"github.com/edu-invite/invite/shared/scimprobe"
)

// withoutPatch is an SP that declares no PATCH support and refuses PATCH,
// as many SCIM SPs do; everything else is the sample SP's.
func withoutPatch(sp http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case strings.HasSuffix(r.URL.Path, "/ServiceProviderConfig"):
			w.Header().Set("Content-Type", "application/scim+json")
			_, _ = w.Write([]byte(`{"schemas":["urn:ietf:params:scim:schemas:core:2.0:ServiceProviderConfig"],
				"patch":{"supported":false},"bulk":{"supported":false,"maxOperations":0,"maxPayloadSize":0},
				"filter":{"supported":true,"maxResults":50},"changePassword":{"supported":false},
				"sort":{"supported":false},"etag":{"supported":false},"authenticationSchemes":[]}`))
		case r.Method == http.MethodPatch:
			http.Error(w, "PATCH not implemented", http.StatusNotImplemented)
		default:
			sp.ServeHTTP(w, r)
		}
	})
}

func TestFourConnectionsFourReports(t *testing.T) {
	good := scimsp.New(scimsp.Options{BasicUser: "invite", BasicPassword: "right-password"})
	goodSrv := httptest.NewServer(good.Handler())
	defer goodSrv.Close()
	noPatch := scimsp.New(scimsp.Options{BearerToken: "np-token"})
	noPatchSrv := httptest.NewServer(withoutPatch(noPatch.Handler()))
	defer noPatchSrv.Close()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	downURL := "http://" + ln.Addr().String()
	ln.Close() // nothing listens there any more

	basic := func(pw string) scimprobe.Credentials {
		return scimprobe.Credentials{Method: "basic", Username: "invite", Password: pw}
	}
	p := &scimprobe.Prober{Policy: loopback}
	ctx := context.Background()

	wellBehaved := p.Test(ctx, scimprobe.Connection{ID: "good", BaseURL: goodSrv.URL, Membership: "PATCH", Credentials: basic("right-password")})
	t.Logf("well-behaved: %s", wellBehaved.Summary)
	if !wellBehaved.OK || !wellBehaved.Reachable || !is(wellBehaved.CredentialsAccepted, true) ||
		!is(wellBehaved.Capabilities.Patch, true) || !is(wellBehaved.Capabilities.Filter, true) || wellBehaved.Capabilities.MaxResults != 100 ||
		wellBehaved.RecommendedMembership != "PATCH" || wellBehaved.Capabilities.Schemas == 0 ||
		!strings.Contains(strings.Join(wellBehaved.Capabilities.ResourceTypes, ","), "User") {
		t.Errorf("well-behaved report: %+v", wellBehaved)
	}
	for _, w := range wellBehaved.Warnings {
		if !strings.Contains(w, "plain http") {
			t.Errorf("unexpected warning %q", w)
		}
	}

	np := p.Test(ctx, scimprobe.Connection{ID: "np", BaseURL: noPatchSrv.URL, Membership: "PATCH",
		Credentials: scimprobe.Credentials{Method: "bearer", Token: "np-token"}})
	t.Logf("no PATCH: %s", np.Summary)
	if !np.OK || np.RecommendedMembership != "PUT" || !is(np.Capabilities.Patch, false) || np.Capabilities.MaxResults != 50 ||
		!strings.Contains(strings.Join(np.Warnings, "|"), "set membership to PUT") {
		t.Errorf("no-PATCH report: %+v", np)
	}

	wrong := p.Test(ctx, scimprobe.Connection{ID: "wrong", BaseURL: goodSrv.URL, Membership: "PATCH", Credentials: basic("wrong-password")})
	t.Logf("wrong credentials: %s", wrong.Summary)
	if wrong.OK || !wrong.Reachable || !is(wrong.CredentialsAccepted, false) || !strings.Contains(wrong.Summary, "refuses the credentials") {
		t.Errorf("wrong-credentials report: %+v", wrong)
	}

	down := p.Test(ctx, scimprobe.Connection{ID: "down", BaseURL: downURL, Membership: "PATCH", Credentials: basic("x")})
	t.Logf("down: %s", down.Summary)
	if down.OK || down.Reachable || down.CredentialsAccepted != nil || !strings.Contains(down.Summary, "cannot be reached") ||
		!strings.Contains(down.Summary, "refused") {
		t.Errorf("down report: %+v", down)
	}

	// Never a change: only GETs reached either SP, and both are empty.
	for _, sp := range []*scimsp.SP{good, noPatch} {
		for _, r := range sp.Requests() {
			if r.Method != http.MethodGet {
				t.Errorf("the test sent %s %s", r.Method, r.Path)
			}
		}
		if len(sp.Users()) != 0 || len(sp.Groups()) != 0 {
			t.Error("the test created resources")
		}
	}
	// The JSON form carries the same facts, and never a credential.
	b, _ := json.Marshal(wrong)
	if strings.Contains(string(b), "wrong-password") || !strings.Contains(string(b), `"credentialsAccepted":false`) {
		t.Errorf("JSON: %s", b)
	}
}

func is(b *bool, want bool) bool { return b != nil && *b == want }

// loopback is the address policy of tests whose SPs listen on 127.0.0.1.
var loopback = outbound.Policy{AllowHTTP: true, Allowed: outbound.Allowlist{Prefixes: []netip.Prefix{netip.MustParsePrefix("127.0.0.1/32")}}}

// TestReportIsNoScanner: without the operator's allow-list a loopback
// address is refused before anything is sent, and when an address is
// reached, the report repeats none of what the remote side answered.
func TestReportIsNoScanner(t *testing.T) {
	var hits atomic.Int32
	internal := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		http.Error(w, "internal-service-banner v1.2 at 10.0.0.7", http.StatusInternalServerError)
	}))
	defer internal.Close()
	rep := (&scimprobe.Prober{Policy: outbound.Policy{AllowHTTP: true}}).Test(context.Background(), scimprobe.Connection{ID: "scan",
		BaseURL: internal.URL, Credentials: scimprobe.Credentials{Method: "bearer", Token: "t"}})
	if hits.Load() != 0 || rep.Reachable || !strings.Contains(rep.Summary, "does not call this address") {
		t.Fatalf("closed policy: %d requests arrived, report %+v", hits.Load(), rep)
	}
	token := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusBadRequest)
		_, _ = w.Write([]byte(`{"error":"internal-service-banner","error_description":"internal-service-banner v1.2"}`))
	}))
	defer token.Close()
	for name, c := range map[string]scimprobe.Connection{
		"sp":    {ID: "sp", BaseURL: internal.URL, Credentials: scimprobe.Credentials{Method: "bearer", Token: "t"}},
		"token": {ID: "token", BaseURL: internal.URL, Credentials: scimprobe.Credentials{Method: "oauth2", TokenURL: token.URL, ClientID: "c", ClientSecret: "s"}},
	} {
		rep := (&scimprobe.Prober{Policy: loopback}).Test(context.Background(), c)
		b, _ := json.Marshal(rep)
		port := internal.URL[strings.LastIndex(internal.URL, ":")+1:]
		if strings.Contains(string(b), "internal-service-banner") || strings.Contains(strings.ReplaceAll(string(b), internal.URL, ""), port) {
			t.Errorf("%s: the report quotes the remote side: %s", name, b)
		}
	}
	if hits.Load() == 0 {
		t.Fatal("allowed, the addresses were not called")
	}
}

// TestUntrustedCertificateAndOAuth: an SP whose certificate the service
// does not trust is reported as such, and OAuth 2.0 client credentials are
// exchanged for a token that the SP then accepts.
func TestUntrustedCertificateAndOAuth(t *testing.T) {
	sp := scimsp.New(scimsp.Options{BearerToken: "issued-access-token"})
	tlsSrv := httptest.NewTLSServer(sp.Handler())
	defer tlsSrv.Close()
	rep := (&scimprobe.Prober{Policy: loopback}).Test(context.Background(), scimprobe.Connection{ID: "tls", BaseURL: tlsSrv.URL, Membership: "PATCH",
		Credentials: scimprobe.Credentials{Method: "bearer", Token: "issued-access-token"}})
	if rep.OK || !rep.Reachable || !is(rep.TLSValid, false) || !strings.Contains(rep.Summary, "TLS certificate is not valid") {
		t.Errorf("untrusted certificate: %+v", rep)
	}

	var tokenRequests int
	tokenSrv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		tokenRequests++
		_ = r.ParseForm()
		id, secret, _ := r.BasicAuth()
		if r.Form.Get("grant_type") != "client_credentials" || id != "invite" || secret != "client-secret" {
			http.Error(w, `{"error":"invalid_client"}`, http.StatusUnauthorized)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"access_token":"issued-access-token","token_type":"Bearer","expires_in":3600}`))
	}))
	defer tokenSrv.Close()
	plain := httptest.NewServer(sp.Handler())
	defer plain.Close()
	oauth := func(secret string) scimprobe.Report {
		return (&scimprobe.Prober{Policy: loopback}).Test(context.Background(), scimprobe.Connection{ID: "oauth", BaseURL: plain.URL, Membership: "PATCH",
			Credentials: scimprobe.Credentials{Method: "oauth2", TokenURL: tokenSrv.URL, ClientID: "invite", ClientSecret: secret}})
	}
	if rep := oauth("client-secret"); !rep.OK || !is(rep.CredentialsAccepted, true) {
		t.Errorf("oauth2 with the right client secret: %+v", rep)
	}
	if rep := oauth("wrong"); rep.OK || !is(rep.CredentialsAccepted, false) || !strings.Contains(rep.Summary, "token endpoint") {
		t.Errorf("oauth2 with a wrong client secret: %+v", rep)
	}
	if tokenRequests < 2 { // a refused client is retried once with the secret in the body (auth style detection)
		t.Errorf("token requests = %d, want one per test at least", tokenRequests)
	}
}
