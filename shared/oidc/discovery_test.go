package oidc_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/edu-invite/invite/shared/oidc"
)

// TestMisconfigurationIsNamed: a provider that answers, but not as
// configured, is a misconfiguration whose message says what to fix, not an
// outage; only a provider that cannot answer is unavailable.
func TestMisconfigurationIsNamed(t *testing.T) {
	var issuer string
	tests := []struct {
		name       string
		configured func() string
		serve      func(w http.ResponseWriter)
		misconf    bool
		says       string
	}{
		{name: "trailing slash", configured: func() string { return issuer + "/" },
			serve: func(w http.ResponseWriter) { writeDoc(w, issuer, issuer+"/jwks") }, misconf: true, says: "trailing slash"},
		{name: "another issuer", configured: func() string { return issuer },
			serve: func(w http.ResponseWriter) { writeDoc(w, "https://elsewhere.example.org", issuer+"/jwks") }, misconf: true, says: "https://elsewhere.example.org"},
		{name: "no jwks_uri", configured: func() string { return issuer },
			serve: func(w http.ResponseWriter) { writeDoc(w, issuer, "") }, misconf: true, says: "jwks_uri"},
		{name: "no discovery document", configured: func() string { return issuer },
			serve: func(w http.ResponseWriter) { http.NotFound(w, nil) }, misconf: true, says: "404"},
		{name: "not JSON", configured: func() string { return issuer },
			serve: func(w http.ResponseWriter) { _, _ = w.Write([]byte("<html>")) }, misconf: true, says: "not JSON"},
		{name: "provider failing", configured: func() string { return issuer },
			serve: func(w http.ResponseWriter) { w.WriteHeader(http.StatusBadGateway) }, misconf: false, says: "502"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { tt.serve(w) }))
			defer srv.Close()
			issuer = srv.URL
			v, err := oidc.NewVerifier(context.Background(), tt.configured(), "invite-api")
			if err != nil {
				t.Fatal(err)
			}
			err = v.Check(context.Background())
			if !errors.Is(err, oidc.ErrProviderUnavailable) {
				t.Fatalf("Check = %v; want a provider error (503 to callers)", err)
			}
			if got := errors.Is(err, oidc.ErrMisconfigured); got != tt.misconf {
				t.Fatalf("misconfigured = %v, want %v (%v)", got, tt.misconf, err)
			}
			if !strings.Contains(err.Error(), tt.says) {
				t.Fatalf("error %q does not say %q", err, tt.says)
			}
		})
	}
}

func writeDoc(w http.ResponseWriter, issuer, jwks string) {
	w.Header().Set("Content-Type", "application/json")
	doc := `{"issuer":"` + issuer + `","authorization_endpoint":"` + issuer + `/auth","token_endpoint":"` + issuer + `/token"`
	if jwks != "" {
		doc += `,"jwks_uri":"` + jwks + `"`
	}
	_, _ = w.Write([]byte(doc + "}"))
}
