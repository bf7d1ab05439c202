package app

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/edu-invite/invite/shared/oidc"
	"github.com/edu-invite/invite/shared/testkit"
)

// TestStartUpNamesMisconfiguration: an issuer configured with a trailing
// slash the provider does not have is logged at start-up as a
// misconfiguration that says what to fix, not as an outage.
func TestStartUpNamesMisconfiguration(t *testing.T) {
	var issuer string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = w.Write([]byte(`{"issuer":"` + issuer + `","jwks_uri":"` + issuer + `/jwks"}`))
	}))
	defer srv.Close()
	issuer = srv.URL
	v, err := oidc.NewVerifier(context.Background(), issuer+"/", "invite-api")
	if err != nil {
		t.Fatal(err)
	}
	var log testkit.LogBuffer
	checkProvider(NewLoggerTo(&log), "API access tokens", v.Check)
	deadline := time.Now().Add(10 * time.Second)
	for !strings.Contains(log.String(), "identity provider misconfigured") {
		if time.Now().After(deadline) {
			t.Fatalf("no misconfiguration logged: %s", log.String())
		}
		time.Sleep(10 * time.Millisecond)
	}
	if line := log.String(); !strings.Contains(line, "trailing slash") || !strings.Contains(line, `"level":"ERROR"`) {
		t.Errorf("the log line does not say what to fix: %s", line)
	}
}

func TestIdentitySettingsFromEnv(t *testing.T) {
	t.Setenv("OIDC_SCOPES", "openid, profile eduperson")
	t.Setenv("OIDC_ACR_ORDER", "urn:sfa,urn:mfa")
	t.Setenv("OIDC_CLAIM_EPPN", "eppn")
	t.Setenv("OIDC_INTROSPECTION_CLIENT_ID", "invite-api")
	t.Setenv("OIDC_INTROSPECTION_SECRET", "")
	if _, err := identitySettingsFromEnv(); err == nil || !strings.Contains(err.Error(), "OIDC_INTROSPECTION_SECRET") {
		t.Fatalf("introspection without a secret: %v", err)
	}
	t.Setenv("OIDC_INTROSPECTION_SECRET", "env:X")
	s, err := identitySettingsFromEnv()
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(s.Scopes, " ") != "openid profile eduperson" || strings.Join(s.Contexts, " ") != "urn:sfa urn:mfa" ||
		s.Claims.EduPersonPrincipalName != "eppn" || s.IntrospectionSecretRef != "env:X" {
		t.Errorf("settings = %+v", s)
	}
}
