package browsertest

import (
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"os"
	"strings"
	"testing"
)

// TestSessionRoutes: the reference client's session routes under /api/v1,
// served by the pages on the browser session, for an anonymous visitor
// and for a signed-in person.
func TestSessionRoutes(t *testing.T) {
	anon := newAgent(t)
	me := newAgent(t)
	me.signIn("/", person{Name: "Sam Session", Email: "sam.session@example.org"})
	if !me.signedIn() {
		t.Fatal("the signed-in agent is not signed in")
	}

	t.Run("login", func(t *testing.T) {
		tests := []struct {
			name     string
			a        *agent
			query    string
			wantPath string // where the browser goes: /login?next=… for a sign-in
		}{
			{"anonymous starts the sign-in", anon, "redirect_url=" + url.QueryEscape("/my/welcome"), "/login?next=%2Fmy%2Fwelcome"},
			{"anonymous, absolute same-origin address", anon, "redirect_url=" + url.QueryEscape(stk.URL+"/console?x=1"), "/login?next=%2Fconsole%3Fx%3D1"},
			{"anonymous, another site goes home", anon, "redirect_url=" + url.QueryEscape("https://evil.example/"), "/login?next=%2F"},
			{"anonymous, scheme-relative goes home", anon, "redirect_url=" + url.QueryEscape("//evil.example/x"), "/login?next=%2F"},
			{"signed in goes straight back", me, "redirect_url=" + url.QueryEscape(stk.URL+"/console"), "/console"},
			{"signed in, another site goes home", me, "redirect_url=" + url.QueryEscape("https://evil.example/"), "/"},
			{"signed in, force signs in afresh", me, "force=true&redirect_url=" + url.QueryEscape("/"), "/login?next=%2F&switch=1"},
		}
		for _, tt := range tests {
			status, to, _ := tt.a.do("GET", stk.URL+"/api/v1/users/login?"+tt.query, nil, nil)
			if status != http.StatusFound || to != stk.URL+tt.wantPath {
				t.Errorf("%s: %d to %s, want 302 to %s", tt.name, status, to, tt.wantPath)
			}
		}
	})

	t.Run("csrf and disclaimer", func(t *testing.T) {
		for name, a := range map[string]*agent{"anonymous": anon, "signed in": me} {
			var csrf, disclaimer map[string]any
			status, _, body := a.do("GET", stk.URL+"/api/v1/csrf", nil, nil)
			if status != http.StatusOK || json.Unmarshal([]byte(body), &csrf) != nil || csrf["token"] == "" || csrf["headerName"] != "X-CSRF-TOKEN" {
				t.Errorf("%s csrf = %d %s", name, status, body)
			}
			status, _, body = a.do("GET", stk.URL+"/api/v1/disclaimer", nil, nil)
			err := json.Unmarshal([]byte(body), &disclaimer)
			if _, ok := disclaimer["disclaimer"].(string); status != http.StatusOK || err != nil || !ok {
				t.Errorf("%s disclaimer = %d %s", name, status, body)
			}
		}
	})

	t.Run("error report", func(t *testing.T) {
		report := `{"name":"TypeError","message":"mail carol@example.org failed","url":"/invitation/accept?hash=SECRETHASH123"}`
		post := func(a *agent, body string, h http.Header) (int, string) {
			req := http.Header{"Content-Type": {"application/json"}, "Origin": {stk.URL}}
			for k, v := range h {
				req[k] = v
			}
			status, _, out := a.doBody("POST", stk.URL+"/api/v1/users/error", body, req)
			return status, out
		}
		if status, body := post(anon, report, nil); status != http.StatusUnauthorized || !strings.Contains(body, `"status":401`) {
			t.Errorf("anonymous report = %d %s", status, body)
		}
		if status, body := post(me, report, nil); status != http.StatusCreated {
			t.Errorf("signed-in report = %d %s", status, body)
		}
		if status, _ := post(me, "not json", nil); status != http.StatusBadRequest {
			t.Errorf("a report that is not JSON = %d, want 400", status)
		}
		if status, _ := post(me, report, http.Header{"Origin": {"https://evil.example"}, "Sec-Fetch-Site": {"cross-site"}}); status != http.StatusForbidden {
			t.Errorf("a report from another site = %d, want 403", status)
		}
		if status, _, _ := me.do("GET", stk.URL+"/api/v1/users/error", nil, nil); status != http.StatusNotFound {
			t.Errorf("GET error report = %d, want 404 (reports are POSTed)", status)
		}
		logs := serviceLog(t)
		if !strings.Contains(logs, "client error reported") {
			t.Errorf("the report is not logged")
		}
		for _, personal := range []string{"carol@example.org", "SECRETHASH123", "sam.session@example.org"} {
			if line := lineWith(logs, "client error reported"); strings.Contains(line, personal) {
				t.Errorf("the report's log line carries %q: %s", personal, line)
			}
		}
	})

	t.Run("logout", func(t *testing.T) {
		if status, _, _ := me.do("GET", stk.URL+"/api/v1/users/logout", nil, http.Header{"Sec-Fetch-Site": {"cross-site"}}); status != http.StatusForbidden || !me.signedIn() {
			t.Errorf("a logout from another site = %d and must leave the session", status)
		}
		status, _, body := me.do("GET", stk.URL+"/api/v1/users/logout", nil, http.Header{"Sec-Fetch-Site": {"same-origin"}})
		if status != http.StatusOK || !strings.Contains(body, `"status":"ok"`) || me.signedIn() {
			t.Errorf("logout = %d %s, signed in after: %v", status, body, me.signedIn())
		}
		if status, _, _ := anon.do("GET", stk.URL+"/api/v1/users/logout", nil, nil); status != http.StatusOK {
			t.Errorf("anonymous logout = %d, want 200", status)
		}
	})
}

// doBody sends a raw body with the agent's cookies.
func (a *agent) doBody(method, rawURL, body string, header http.Header) (int, string, string) {
	a.t.Helper()
	req, err := http.NewRequest(method, rawURL, strings.NewReader(body))
	must(a.t, err)
	for k, vs := range header {
		req.Header[k] = vs
	}
	for name, value := range a.cookies {
		req.AddCookie(&http.Cookie{Name: name, Value: value})
	}
	resp, err := a.client.Do(req)
	must(a.t, err)
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header.Get("Location"), string(raw)
}

func serviceLog(t *testing.T) string {
	t.Helper()
	raw, err := os.ReadFile(logPath)
	must(t, err)
	return string(raw)
}

func lineWith(log, s string) string {
	for _, l := range strings.Split(log, "\n") {
		if strings.Contains(l, s) {
			return l
		}
	}
	return ""
}
