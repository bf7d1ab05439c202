package idp_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/edu-invite/invite/localstack/idp"
	"github.com/edu-invite/invite/shared/oidc"
)

const audience = "invite-api"

// serveUnderPrefix mounts the IdP at /idp, as the local stack does.
func serveUnderPrefix(t *testing.T) (*idp.IdP, *httptest.Server) {
	t.Helper()
	server := httptest.NewUnstartedServer(nil)
	p, err := idp.New("http://" + server.Listener.Addr().String() + "/idp")
	if err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	mux.Handle("/idp/", http.StripPrefix("/idp", p.Handler()))
	server.Config.Handler = mux
	server.Start()
	t.Cleanup(server.Close)
	return p, server
}

func TestDiscoveryUnderPrefix(t *testing.T) {
	p, server := serveUnderPrefix(t)
	resp, err := http.Get(server.URL + "/idp/.well-known/openid-configuration")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var doc map[string]any
	if err := json.NewDecoder(resp.Body).Decode(&doc); err != nil {
		t.Fatal(err)
	}
	for field, want := range map[string]string{
		"issuer":         p.Issuer(),
		"jwks_uri":       p.Issuer() + "/jwks",
		"token_endpoint": p.Issuer() + "/token",
	} {
		if doc[field] != want {
			t.Errorf("%s = %v, want %s", field, doc[field], want)
		}
	}
}

// TestTokenEndpointVerifies goes the way the local stack does: obtain a token
// from POST /token, verify it through discovery under the /idp prefix.
func TestTokenEndpointVerifies(t *testing.T) {
	p, server := serveUnderPrefix(t)
	verifier, err := oidc.NewVerifier(context.Background(), p.Issuer(), audience)
	if err != nil {
		t.Fatal(err)
	}

	form := url.Values{
		"sub":                      {"urn:collab:person:example.org:jdoe"},
		"email":                    {"jdoe@example.org"},
		"eduperson_principal_name": {"jdoe@example.org"},
		"schac_home_organization":  {"example.org"},
		"uids":                     {"jdoe", "john"},
		"aud":                      {audience},
		"iss":                      {"https://evil.example.org"}, // reserved: ignored
		"expires_in":               {"120"},
	}
	tests := []struct {
		name        string
		contentType string
		body        string
	}{
		{name: "form", contentType: "application/x-www-form-urlencoded", body: form.Encode()},
		{name: "json", contentType: "application/json", body: `{"sub":"urn:collab:person:example.org:jdoe","email":"jdoe@example.org",` +
			`"eduperson_principal_name":"jdoe@example.org","schac_home_organization":"example.org",` +
			`"uids":["jdoe"],"aud":"invite-api","expires_in":120}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp, err := http.Post(server.URL+"/idp/token", tt.contentType, strings.NewReader(tt.body))
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			if resp.StatusCode != http.StatusOK {
				t.Fatalf("status %d", resp.StatusCode)
			}
			var got struct {
				AccessToken string `json:"access_token"`
				TokenType   string `json:"token_type"`
				ExpiresIn   int    `json:"expires_in"`
			}
			if err := json.NewDecoder(resp.Body).Decode(&got); err != nil {
				t.Fatal(err)
			}
			if got.TokenType != "Bearer" || got.ExpiresIn != 120 || got.AccessToken == "" {
				t.Fatalf("response %+v", got)
			}
			claims, err := verifier.Verify(context.Background(), got.AccessToken)
			if err != nil {
				t.Fatalf("Verify: %v", err)
			}
			if claims.Subject != "urn:collab:person:example.org:jdoe" || claims.UID != "jdoe" ||
				claims.SchacHomeOrganization != "example.org" || claims.Email != "jdoe@example.org" {
				t.Fatalf("claims %+v", claims)
			}
		})
	}
}

func TestTokenEndpointDefaultAudience(t *testing.T) {
	p, server := serveUnderPrefix(t)
	p.DefaultAudience = audience
	verifier, err := oidc.NewVerifier(context.Background(), p.Issuer(), audience)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.PostForm(server.URL+"/idp/token", url.Values{"sub": {"s"}})
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var got struct {
		AccessToken string `json:"access_token"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&got); err != nil {
		t.Fatal(err)
	}
	if _, err := verifier.Verify(context.Background(), got.AccessToken); err != nil {
		t.Fatalf("Verify: %v", err)
	}
}

func TestTokenEndpointRejects(t *testing.T) {
	_, server := serveUnderPrefix(t)
	tests := []struct {
		name string
		form url.Values
	}{
		{name: "no sub", form: url.Values{"aud": {audience}}},
		{name: "no aud and no default", form: url.Values{"sub": {"s"}}},
		{name: "expires_in not a number", form: url.Values{"sub": {"s"}, "aud": {audience}, "expires_in": {"soon"}}},
		{name: "expires_in negative", form: url.Values{"sub": {"s"}, "aud": {audience}, "expires_in": {"-5"}}},
		{name: "expires_in too long", form: url.Values{"sub": {"s"}, "aud": {audience}, "expires_in": {"31536000"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp, err := http.PostForm(server.URL+"/idp/token", tt.form)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if resp.StatusCode != http.StatusBadRequest {
				t.Fatalf("status %d, want 400", resp.StatusCode)
			}
		})
	}

	resp, err := http.Post(server.URL+"/idp/token", "application/json", strings.NewReader(`[1,2]`))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusBadRequest {
		t.Fatalf("JSON array body: status %d, want 400", resp.StatusCode)
	}

	resp, err = http.Get(server.URL + "/idp/token")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusMethodNotAllowed {
		t.Fatalf("GET /token: status %d, want 405", resp.StatusCode)
	}
}

func TestRotateKeepsPreviousKeyPublished(t *testing.T) {
	p, server := serveUnderPrefix(t)
	kids := func() []string {
		resp, err := http.Get(server.URL + "/idp/jwks")
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var set struct {
			Keys []struct {
				KID string `json:"kid"`
				D   string `json:"d"`
			} `json:"keys"`
		}
		if err := json.NewDecoder(resp.Body).Decode(&set); err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, k := range set.Keys {
			if k.KID == "" || k.D != "" {
				t.Fatalf("JWKS key without kid or with private part: %+v", k)
			}
			out = append(out, k.KID)
		}
		return out
	}

	first := kids()
	retired, err := p.Mint(map[string]any{"sub": "s"}, audience, time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	if len(first) != 1 {
		t.Fatalf("kids before rotation %v, want one", first)
	}
	for range 2 {
		if err := p.Rotate(); err != nil {
			t.Fatal(err)
		}
	}
	after := kids()
	if len(after) != 2 || after[0] == after[1] || after[0] == first[0] || after[1] == first[0] {
		t.Fatalf("kids after two rotations %v (first %v), want the two newest", after, first)
	}

	// Two rotations later the first key is gone: its tokens no longer verify.
	verifier, err := oidc.NewVerifier(context.Background(), p.Issuer(), audience)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := verifier.Verify(context.Background(), retired); !errors.Is(err, oidc.ErrInvalidToken) {
		t.Fatalf("token of the retired key: %v, want ErrInvalidToken", err)
	}
}

func TestNewRejectsBadIssuer(t *testing.T) {
	for _, issuer := range []string{"", "127.0.0.1:8080/idp", "ftp://x/idp", "http:///idp", "http://x/idp?q=1", "http://x/idp#f"} {
		if _, err := idp.New(issuer); err == nil {
			t.Errorf("New(%q) succeeded", issuer)
		}
	}
}
