//go:build parity

package parity

import (
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"regexp"
	"strings"
	"testing"
)

// browser is a person's browser at the gateway: a cookie jar, the
// gateway's certificate trusted.
type browser struct {
	t *testing.T
	c *http.Client
}

func newBrowser(t *testing.T) *browser {
	jar, _ := cookiejar.New(nil)
	c := &http.Client{Transport: env.Gateway.Client().Transport, Jar: jar}
	return &browser{t: t, c: c}
}

// signIn goes through the pages' OIDC sign-in at the development IdP.
func (b *browser) signIn(eppn, next string) {
	b.t.Helper()
	target := env.Dep.GatewayURL + "/login"
	if next != "" {
		target += "?next=" + url.QueryEscape(next)
	}
	resp, err := b.c.Get(target)
	if err != nil {
		b.t.Fatalf("sign in: %v", err)
	}
	page := readAll(b.t, resp)
	if resp.StatusCode != http.StatusOK || !strings.Contains(page, "Development sign-in") {
		b.t.Fatalf("sign in: %d at %s: %.500s", resp.StatusCode, resp.Request.URL, page)
	}
	form := url.Values{"action": {"signin"}, "eppn": {eppn}, "email": {eppn}, "name": {"Parity Person"}, "sho": {"parity.example.org"}}
	for _, m := range regexp.MustCompile(`<input type="hidden" name="([^"]+)" value="([^"]*)">`).FindAllStringSubmatch(page, -1) {
		form.Set(m[1], htmlUnescape(m[2]))
	}
	resp, err = b.c.PostForm(resp.Request.URL.String(), form)
	if err != nil {
		b.t.Fatalf("sign in: %v", err)
	}
	page = readAll(b.t, resp)
	if resp.StatusCode != http.StatusOK {
		b.t.Fatalf("sign in: %d at %s: %.500s", resp.StatusCode, resp.Request.URL, page)
	}
}

func (b *browser) get(path string) (int, string) {
	b.t.Helper()
	resp, err := b.c.Get(env.Dep.GatewayURL + path)
	if err != nil {
		b.t.Fatalf("GET %s: %v", path, err)
	}
	return resp.StatusCode, readAll(b.t, resp)
}

// post sends a form and follows the redirect; it returns the final
// status, page and address.
func (b *browser) post(path string, form url.Values) (int, string, *url.URL) {
	b.t.Helper()
	req, _ := http.NewRequest(http.MethodPost, env.Dep.GatewayURL+path, strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Origin", env.Dep.GatewayURL)
	req.Header.Set("Sec-Fetch-Site", "same-origin")
	resp, err := b.c.Do(req)
	if err != nil {
		b.t.Fatalf("POST %s: %v", path, err)
	}
	return resp.StatusCode, readAll(b.t, resp), resp.Request.URL
}

func readAll(t *testing.T, resp *http.Response) string {
	t.Helper()
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func htmlUnescape(s string) string {
	return strings.NewReplacer("&amp;", "&", "&lt;", "<", "&gt;", ">", "&#34;", `"`, "&#39;", "'", "&quot;", `"`).Replace(s)
}
