package web

import (
	"net/http"
	"net/http/httptest"
	"testing"
)

func TestLocalPath(t *testing.T) {
	tests := map[string]string{
		"":                              "/",
		"/":                             "/",
		"/invitation/accept?hash=abc":   "/invitation/accept?hash=abc",
		"https://evil.example/":         "/",
		"//evil.example/x":              "/",
		`/\evil.example`:                "/",
		"evil.example":                  "/",
		"javascript:alert(1)":           "/",
		"/ok\r\nSet-Cookie: x=y":        "/",
		"/my/welcome?roles=1,2&lang=nl": "/my/welcome?roles=1,2&lang=nl",
	}
	for in, want := range tests {
		if got := localPath(in); got != want {
			t.Errorf("localPath(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestMaskEmail(t *testing.T) {
	tests := map[string]string{
		"carol@example.org": "c•••l@example.org",
		"jo@example.org":    "j•••@example.org",
		"x@example.org":     "x•••@example.org",
		"no-at-sign":        "•••",
	}
	for in, want := range tests {
		if got := maskEmail(in); got != want {
			t.Errorf("maskEmail(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestSecurityHeaders(t *testing.T) {
	h := securityHeaders(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {}))
	for path, cache := range map[string]string{"/": "no-store", "/my/welcome": "no-store", "/static/app.css": "public, max-age=3600"} {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest("GET", path, nil))
		got := rec.Header()
		if got.Get("Content-Security-Policy") != contentSecurityPolicy || got.Get("Referrer-Policy") != "no-referrer" ||
			got.Get("X-Content-Type-Options") != "nosniff" || got.Get("Cache-Control") != cache {
			t.Errorf("%s: headers %v", path, got)
		}
	}
}

func TestTemplatesParse(t *testing.T) {
	ts, err := parseTemplates()
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range pageNames {
		if ts[name] == nil || ts[name].Lookup("content") == nil || ts[name].Lookup("layout") == nil {
			t.Errorf("page %s lacks its content or the layout", name)
		}
	}
}
