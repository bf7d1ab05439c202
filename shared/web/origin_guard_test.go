package web

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/edu-invite/invite/shared/middleware"
	"github.com/edu-invite/invite/shared/secrets"
)

// TestPagesNotThroughCloudFrontAreRefused: with the origin secret
// configured, a page asked for without it (or with a wrong one) is a plain
// 403 page pointing to the public address, before any session is read or
// created; with it the page is served. Without the configuration nothing is
// checked.
func TestPagesNotThroughCloudFrontAreRefused(t *testing.T) {
	const secret = "origin-secret-of-the-pages-test-0123456789"
	t.Setenv("TEST_PAGES_ORIGIN_VERIFY", secret)
	guarded := newPublicPages(t, &middleware.OriginCheck{Secrets: secrets.NewResolver(nil, time.Minute), Ref: "env:TEST_PAGES_ORIGIN_VERIFY"})
	get := func(h http.Handler, path, header string, set bool) *httptest.ResponseRecorder {
		r := httptest.NewRequest(http.MethodGet, "https://abc123.execute-api.eu-west-1.amazonaws.com"+path, nil)
		if set {
			r.Header.Set(middleware.OriginHeader, header)
		}
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		return w
	}
	for _, path := range []string{"/", "/login?next=/my/access", "/static/app.css"} {
		for _, tc := range []struct {
			name, header string
			set          bool
		}{{"missing", "", false}, {"wrong", "wrong-value", true}} {
			w := get(guarded, path, tc.header, tc.set)
			if w.Code != http.StatusForbidden {
				t.Errorf("%s %s header: %d", path, tc.name, w.Code)
				continue
			}
			if ct := w.Header().Get("Content-Type"); !strings.HasPrefix(ct, "text/plain") {
				t.Errorf("%s %s header: Content-Type %q, want a plain page", path, tc.name, ct)
			}
			if body := w.Body.String(); !strings.Contains(body, "https://invite.example.edu/") || strings.Contains(body, secret) {
				t.Errorf("%s %s header: body %q", path, tc.name, body)
			}
			if c := w.Header().Values("Set-Cookie"); len(c) > 0 {
				t.Errorf("%s %s header: a refused request got cookies %v", path, tc.name, c)
			}
		}
		if w := get(guarded, path, secret, true); w.Code == http.StatusForbidden {
			t.Errorf("%s with the secret: 403 %s", path, w.Body.String())
		}
	}
	if w := get(newPublicPages(t, nil), "/", "", false); w.Code != http.StatusOK {
		t.Errorf("without an origin check configured: %d", w.Code)
	}
}
