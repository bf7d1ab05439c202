package httpapi_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// Issue 21 item 4: a JSON write needs Content-Type application/json (415
// otherwise), and a wrong method answers 405 with Allow.
func TestWritesNeedJSONAndWrongMethodsAnswer405(t *testing.T) {
	w := newWorld(t)
	body := `{"description":"d"}`
	for _, tc := range []struct {
		name, method, path, contentType string
		status                          int
		allow                           string
	}{
		{"json", "POST", "/api/v1/tokens", "application/json", 0, ""},
		{"json with charset", "POST", "/api/v1/tokens", "application/json; charset=utf-8", 0, ""},
		{"text/plain", "POST", "/api/v1/tokens", "text/plain", http.StatusUnsupportedMediaType, ""},
		{"form", "POST", "/api/v1/tokens", "application/x-www-form-urlencoded", http.StatusUnsupportedMediaType, ""},
		{"none", "POST", "/api/v1/tokens", "", http.StatusUnsupportedMediaType, ""},
		{"PUT without type", "PUT", "/api/v1/user_roles", "", http.StatusUnsupportedMediaType, ""},
		{"wrong method", "PATCH", "/api/v1/tokens", "application/json", http.StatusMethodNotAllowed, "GET, POST"},
		{"wrong method on an id", "POST", "/api/v1/roles/{roleA}", "application/json", http.StatusMethodNotAllowed, "GET, DELETE"},
		{"unknown path", "GET", "/api/v1/tokens/nothing/here", "", http.StatusNotFound, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			req := httptest.NewRequest(tc.method, w.expand(tc.path), strings.NewReader(body))
			if tc.contentType != "" {
				req.Header.Set("Content-Type", tc.contentType)
			}
			req.Header.Set("Authorization", "Bearer super")
			rec := httptest.NewRecorder()
			w.Server.ServeHTTP(rec, req)
			if tc.status == 0 {
				if rec.Code == http.StatusUnsupportedMediaType || rec.Code == http.StatusMethodNotAllowed {
					t.Fatalf("refused: %d %s", rec.Code, rec.Body.String())
				}
				return
			}
			if rec.Code != tc.status {
				t.Fatalf("status %d, want %d: %s", rec.Code, tc.status, rec.Body.String())
			}
			if got := rec.Header().Get("Allow"); got != tc.allow {
				t.Errorf("Allow %q, want %q", got, tc.allow)
			}
			if decode[map[string]any](t, rec)["status"] != float64(tc.status) {
				t.Errorf("error body %s", rec.Body.String())
			}
		})
	}
}
