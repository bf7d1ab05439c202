package httpapi

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/edu-invite/invite/shared/auth"
	"github.com/edu-invite/invite/shared/domain"
)

// TestRefusalsChallenge: every 401 says how to authenticate (RFC 6750),
// with the error code when a bearer token was sent, and a too weak
// authentication says which context to ask for (RFC 9470).
func TestRefusalsChallenge(t *testing.T) {
	tests := []struct {
		name      string
		bearer    bool
		err       error
		status    int
		challenge []string
	}{
		{"anonymous", false, domain.Unauthenticatedf("authentication required"), 401, []string{`Bearer realm="invite"`}},
		{"bad bearer", true, domain.Unauthenticatedf("invalid bearer token"), 401, []string{`Bearer realm="invite"`, `error="invalid_token"`}},
		{"weak context", true, &auth.InsufficientAuthentication{ACRValues: "urn:mfa"}, 401,
			[]string{`error="insufficient_user_authentication"`, `acr_values="urn:mfa"`}},
		{"wrapped weak context", true, errors.Join(errors.New("accept"), &auth.InsufficientAuthentication{ACRValues: "urn:mfa"}), 401,
			[]string{`acr_values="urn:mfa"`}},
		{"forbidden is no challenge", true, domain.Forbiddenf("no"), 403, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := httptest.NewRequest("GET", "/api/v1/users/me", nil)
			if tt.bearer {
				r.Header.Set("Authorization", "Bearer abc")
			}
			w := httptest.NewRecorder()
			writeError(w, r, tt.err)
			got := w.Header().Get("WWW-Authenticate")
			if w.Code != tt.status {
				t.Errorf("status %d, want %d", w.Code, tt.status)
			}
			if len(tt.challenge) == 0 && got != "" {
				t.Errorf("WWW-Authenticate %q on a %d", got, w.Code)
			}
			for _, want := range tt.challenge {
				if !strings.Contains(got, want) {
					t.Errorf("WWW-Authenticate %q lacks %s", got, want)
				}
			}
			if w.Code == http.StatusUnauthorized && !strings.Contains(w.Body.String(), `"status":401`) {
				t.Errorf("body %s is not the API's error body", w.Body.String())
			}
		})
	}
}
