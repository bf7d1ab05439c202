package web

import (
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/edu-invite/invite/shared/auth"
	"github.com/edu-invite/invite/shared/dynamo/dynamotest"
	"github.com/edu-invite/invite/shared/middleware"
	"github.com/edu-invite/invite/shared/testkit"
)

// newPublicPages is the pages' handler at the public address
// https://invite.example.edu/, with an empty table, no identity provider and
// the given origin check (nil: none), for tests of what is answered before
// anyone signs in.
func newPublicPages(t *testing.T, origin *middleware.OriginCheck) http.Handler {
	t.Helper()
	clock := func() time.Time { return time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC) }
	svc, _ := testkit.NewService(t, clock)
	pages, err := New(Config{Service: svc, Authenticator: &auth.Authenticator{}, Sessions: dynamotest.NewStore(t, clock),
		Clock: clock, BaseURL: "https://invite.example.edu/", Origin: origin})
	if err != nil {
		t.Fatal(err)
	}
	return pages.Handler()
}

// TestPublicOriginIsTrustedBehindAProxy: behind CloudFront the Host a
// function sees is API Gateway's own name. A form posted from the public
// origin by a browser that sends no Sec-Fetch-Site is still accepted; one
// from another origin is still refused.
func TestPublicOriginIsTrustedBehindAProxy(t *testing.T) {
	h := newPublicPages(t, nil)
	for _, tc := range []struct {
		origin  string
		refused bool
	}{
		{"https://invite.example.edu", false},
		{"https://evil.example", true},
		{"http://invite.example.edu", true},
	} {
		r := httptest.NewRequest(http.MethodPost, "https://abc123.execute-api.eu-west-1.amazonaws.com/logout", nil)
		r.Header.Set("Origin", tc.origin)
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		if refused := w.Code == http.StatusForbidden; refused != tc.refused {
			t.Errorf("POST /logout from %s: %d, refused %v, want refused %v", tc.origin, w.Code, refused, tc.refused)
		}
	}
}

func TestPublicOrigin(t *testing.T) {
	for in, want := range map[string]string{
		"https://invite.example.edu/":     "https://invite.example.edu",
		"http://localhost:8080/base/path": "http://localhost:8080",
		"":                                "",
		"not a url":                       "",
	} {
		if got := publicOrigin(in); got != want {
			t.Errorf("publicOrigin(%q) = %q, want %q", in, got, want)
		}
	}
}
