//go:build parity

package parity

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// TestGatewayShapes sends payload 2.0 events the way API Gateway shapes
// them to the functions' real runtimes and checks what comes back.
func TestGatewayShapes(t *testing.T) {
	noDenials(t)
	call := func(t *testing.T, method, path string, header http.Header) (int, string, map[string]string) {
		t.Helper()
		u, err := url.Parse(env.Dep.GatewayURL + path)
		if err != nil {
			// A path API Gateway hands over decoded is no valid URL.
			u = &url.URL{Path: path}
		}
		r := &http.Request{Method: method, URL: u, Header: header, Host: strings.TrimPrefix(env.Dep.GatewayURL, "https://"), Proto: "HTTP/1.1"}
		if r.Header == nil {
			r.Header = http.Header{}
		}
		ev, rt, ok := env.Gateway.Event(r, nil)
		if !ok {
			t.Fatalf("no route for %s", path)
		}
		if err != nil {
			ev.RawPath, ev.RequestContext.HTTP.Path = path, path
		}
		resp, err := env.Gateway.Call(context.Background(), rt.Function, ev)
		if err != nil {
			t.Fatalf("%s %s: %v", method, path, err)
		}
		return resp.StatusCode, resp.Body, resp.Headers
	}
	t.Run("HEAD answers without a body", func(t *testing.T) {
		if code, body, _ := call(t, http.MethodHead, "/health", nil); code != http.StatusOK || body != "" {
			t.Errorf("HEAD /health: %d with %d bytes of body", code, len(body))
		}
	})
	t.Run("OPTIONS is answered, not refused", func(t *testing.T) {
		if code, _, h := call(t, http.MethodOptions, "/health", nil); code != http.StatusNoContent || !strings.Contains(h["Allow"], "GET") {
			t.Errorf("OPTIONS /health: %d Allow %q", code, h["Allow"])
		}
		// A page path (the web function) too, without a session.
		if code, _, h := call(t, http.MethodOptions, "/console", nil); code != http.StatusNoContent || !strings.Contains(h["Allow"], "GET") {
			t.Errorf("OPTIONS /console: %d Allow %q", code, h["Allow"])
		}
	})
	t.Run("a path that arrives decoded", func(t *testing.T) {
		if code, _, _ := call(t, http.MethodGet, "/static/100%", nil); code != http.StatusNotFound {
			t.Errorf("GET /static/100%%: %d, want 404", code)
		}
	})
	t.Run("an escaped slash", func(t *testing.T) {
		if code, _, _ := call(t, http.MethodGet, "/static/a%2Fb.css", nil); code != http.StatusNotFound {
			t.Errorf("GET /static/a%%2Fb.css: %d, want 404", code)
		}
	})
	t.Run("Accept-Language with commas", func(t *testing.T) {
		h := http.Header{"Accept-Language": {"nl,en;q=0.8"}}
		code, body, _ := call(t, http.MethodGet, "/", h)
		if code != http.StatusOK || !strings.Contains(body, `lang="nl"`) {
			t.Errorf("GET / in Dutch: %d %.300s", code, body)
		}
	})
}
