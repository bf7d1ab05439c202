package providertest

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"strings"
	"testing"
)

// tokens are what a person's client (a command-line tool, a single-page
// application) gets from the provider for the API.
type tokens struct {
	Access string `json:"access_token"`
	ID     string `json:"id_token"`
}

// personTokens signs login in at the provider through the authorization
// code flow of the CLI client (PKCE, resource = the API), with a second
// factor when mfa, and redeems the code.
func (w *world) personTokens(t *testing.T, login string, mfa bool) tokens {
	t.Helper()
	return w.codeFlow(t, codeClient{id: cliClient, redirect: w.cliBack, scope: "openid invite", resource: apiAudience}, login, mfa)
}

// webTokens are the tokens the pages' client gets for login, as the service
// does at sign-in (no resource: its access token is for userinfo).
func (w *world) webTokens(t *testing.T, login string) tokens {
	t.Helper()
	return w.codeFlow(t, codeClient{id: webClient, secret: clientSecret, redirect: w.stk.URL + "/login/callback",
		scope: "openid profile email eduperson"}, login, false)
}

// codeClient is a client of the provider doing the code flow.
type codeClient struct{ id, secret, redirect, scope, resource string }

// codeFlow runs the authorization code flow with PKCE over HTTP, signing
// login in at the provider's form, and stops at the redirect back to the
// client, whose code it redeems.
func (w *world) codeFlow(t *testing.T, c codeClient, login string, mfa bool) tokens {
	t.Helper()
	jar, _ := cookiejar.New(nil)
	client := &http.Client{Jar: jar, CheckRedirect: func(req *http.Request, _ []*http.Request) error {
		if strings.HasPrefix(req.URL.String(), c.redirect) {
			return http.ErrUseLastResponse
		}
		return nil
	}}
	verifier := randomString(t)
	sum := sha256.Sum256([]byte(verifier))
	q := url.Values{"client_id": {c.id}, "response_type": {"code"}, "scope": {c.scope}, "redirect_uri": {c.redirect},
		"code_challenge": {base64.RawURLEncoding.EncodeToString(sum[:])}, "code_challenge_method": {"S256"},
		"prompt": {"login"}, "state": {randomString(t)}, "nonce": {randomString(t)}}
	if c.resource != "" {
		q.Set("resource", c.resource)
	}
	resp, err := client.Get(w.issuer + "/auth?" + q.Encode())
	if err != nil {
		t.Fatal(err)
	}
	page := readAll(t, resp)
	action := formAction.FindStringSubmatch(page)
	if action == nil {
		t.Fatalf("no login form at %s: %s", resp.Request.URL, page)
	}
	form := url.Values{"login": {login}}
	if mfa {
		form.Set("mfa", "on")
	}
	resp, err = client.PostForm(w.issuer+action[1], form)
	if err != nil {
		t.Fatal(err)
	}
	body := readAll(t, resp)
	back, err := url.Parse(resp.Header.Get("Location"))
	if resp.StatusCode/100 != 3 || err != nil || back.Query().Get("code") == "" {
		t.Fatalf("no code after sign-in: %d %s %s", resp.StatusCode, resp.Header.Get("Location"), body)
	}
	redeem := url.Values{"grant_type": {"authorization_code"}, "code": {back.Query().Get("code")},
		"redirect_uri": {c.redirect}, "code_verifier": {verifier}}
	if c.resource != "" {
		redeem.Set("resource", c.resource)
	}
	if c.secret == "" {
		redeem.Set("client_id", c.id) // a public client names itself
	}
	req, _ := http.NewRequest("POST", w.issuer+"/token", strings.NewReader(redeem.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	if c.secret != "" {
		req.SetBasicAuth(c.id, c.secret)
	}
	resp, err = http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	var tok tokens
	raw := readAll(t, resp)
	if err := json.Unmarshal([]byte(raw), &tok); err != nil || tok.Access == "" || tok.ID == "" {
		t.Fatalf("token endpoint: %d %s", resp.StatusCode, raw)
	}
	return tok
}

// clientToken is the machine client's own access token for the API
// (client credentials: no person).
func (w *world) clientToken(t *testing.T) string {
	t.Helper()
	req, _ := http.NewRequest("POST", w.issuer+"/token", strings.NewReader(url.Values{"grant_type": {"client_credentials"},
		"scope": {"invite"}, "resource": {apiAudience}}.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.SetBasicAuth(machineClient, clientSecret)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	var tok tokens
	raw := readAll(t, resp)
	if err := json.Unmarshal([]byte(raw), &tok); err != nil || tok.Access == "" {
		t.Fatalf("client credentials: %d %s", resp.StatusCode, raw)
	}
	return tok.Access
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

func randomString(t *testing.T) string {
	t.Helper()
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		t.Fatal(err)
	}
	return base64.RawURLEncoding.EncodeToString(b)
}

// idTokenHas reports whether an ID token carries a claim.
func idTokenHas(t *testing.T, idToken, claim string) bool {
	t.Helper()
	parts := strings.Split(idToken, ".")
	if len(parts) != 3 {
		t.Fatalf("the ID token is not a JWT")
	}
	raw, err := base64.RawURLEncoding.DecodeString(parts[1])
	if err != nil {
		t.Fatal(err)
	}
	var payload map[string]any
	if err := json.Unmarshal(raw, &payload); err != nil {
		t.Fatal(err)
	}
	_, ok := payload[claim]
	return ok
}
