package web

import (
	"net/http"
	"net/http/httptest"
	"testing"
)

// OPTIONS on a page path answers 204 with the methods its routes serve,
// without a session cookie; a path no page serves stays a 404, and the
// other methods are routed as before.
func TestOptionsOnPagePathsAnswersAllow(t *testing.T) {
	h := newPublicPages(t, nil)
	for _, tc := range []struct {
		method, path string
		status       int
		allow        string
	}{
		{http.MethodOptions, "/", http.StatusNoContent, "GET, HEAD, OPTIONS"},
		{http.MethodOptions, "/static/app.css", http.StatusNoContent, "GET, HEAD, OPTIONS"},
		{http.MethodOptions, "/logout", http.StatusNoContent, "POST, OPTIONS"},
		{http.MethodOptions, "/console/operations/replay", http.StatusNoContent, "POST, OPTIONS"},
		{http.MethodOptions, "/no/such/page", http.StatusNotFound, ""},
		{http.MethodGet, "/no/such/page", http.StatusNotFound, ""},
	} {
		r := httptest.NewRequest(tc.method, "https://invite.example.edu"+tc.path, nil)
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		if w.Code != tc.status || w.Header().Get("Allow") != tc.allow {
			t.Errorf("%s %s: %d Allow %q, want %d Allow %q", tc.method, tc.path, w.Code, w.Header().Get("Allow"), tc.status, tc.allow)
		}
		if tc.method == http.MethodOptions && w.Header().Get("Set-Cookie") != "" {
			t.Errorf("OPTIONS %s set a cookie", tc.path)
		}
	}
}
