package browsertest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"

	"github.com/edu-invite/invite/localstack/browsertest/chromium"
	"github.com/edu-invite/invite/shared/testkit"
)

// secrets are values that must never reach a log line: invitation hashes,
// session ids, codes and tokens seen during the run (TestNoSecretInLogs).
var secrets struct {
	sync.Mutex
	values []string
}

func remember(values ...string) {
	secrets.Lock()
	defer secrets.Unlock()
	for _, v := range values {
		if len(v) >= 12 {
			secrets.values = append(secrets.values, v)
		}
	}
}

// api calls the JSON API as the super user (the bootstrap token).
func api(t *testing.T, method, path string, body, out any) int {
	t.Helper()
	var rd io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		rd = bytes.NewReader(b)
	}
	req, _ := http.NewRequest(method, stk.URL+path, rd)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-API-TOKEN", adminKey)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	if out != nil {
		if err := json.Unmarshal(raw, out); err != nil {
			t.Fatalf("%s %s: %d %s", method, path, resp.StatusCode, raw)
		}
	}
	return resp.StatusCode
}

// roleOptions are the role's settings beyond its name.
type roleOptions struct {
	EnforceEmailEquality  bool
	FedIDOnly             bool
	RequestedAuthnContext string
	InviterDisplayName    string
}

var roleSeq struct {
	sync.Mutex
	n int
}

// newRole creates a role on the sample application with a unique name.
func newRole(t *testing.T, name string, o roleOptions) int64 {
	t.Helper()
	roleSeq.Lock()
	roleSeq.n++
	name = fmt.Sprintf("%s %d", name, roleSeq.n)
	roleSeq.Unlock()
	var role struct {
		ID int64 `json:"id"`
	}
	body := map[string]any{"name": name, "description": "Wiki and files of the research group", "organizationGUID": "org-browser", "defaultExpiryDays": 365,
		"enforceEmailEquality": o.EnforceEmailEquality, "fedIDOnly": o.FedIDOnly,
		"requestedAuthnContext": o.RequestedAuthnContext, "inviterDisplayName": o.InviterDisplayName,
		"applicationUsages": []any{map[string]any{"landingPage": "https://wiki.example.org/start",
			"application": map[string]any{"manageId": "sample-app", "manageType": "SAML20_SP"}}}}
	if got := api(t, "POST", "/api/v1/roles", body, &role); got != http.StatusCreated || role.ID == 0 {
		t.Fatalf("create role = %d", got)
	}
	return role.ID
}

var linkPattern = regexp.MustCompile(`https?://[^\s"<>]+/invitation/accept\?hash=[A-Za-z0-9_\-]+`)

// invite invites email to the role in lang and returns the link of the
// e-mail the SES substitute captured (GET /store).
func invite(t *testing.T, roleID int64, email, lang, message string) string {
	t.Helper()
	body := map[string]any{"intendedAuthority": "GUEST", "language": lang, "message": message, "guestRoleIncluded": true,
		"invites": []string{email}, "roleIdentifiers": []int64{roleID}, "expiryDate": clock.Now().Add(14 * 24 * time.Hour).Unix()}
	if got := api(t, "POST", "/api/external/v1/invitations", body, nil); got != http.StatusCreated {
		t.Fatalf("invite %s = %d", email, got)
	}
	var link string
	eventually(t, "the invitation e-mail to "+email, func() bool {
		mails, err := stk.SES.Mails(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range mails {
			if len(m.To) > 0 && m.To[0] == email {
				link = linkPattern.FindString(m.Text)
			}
		}
		return link != ""
	})
	remember(strings.SplitN(link, "hash=", 2)[1])
	return link
}

// mailTo is the text of the last e-mail to email.
func mailTo(t *testing.T, email string) string {
	t.Helper()
	mails, err := stk.SES.Mails(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for i := len(mails) - 1; i >= 0; i-- {
		if len(mails[i].To) > 0 && mails[i].To[0] == email {
			return mails[i].Subject + "\n" + mails[i].Text
		}
	}
	t.Fatalf("no e-mail to %s", email)
	return ""
}

// eventually polls cond until it holds or 30 seconds have passed.
var eventually = testkit.Eventually

// newTab is a tab in a fresh browser context (no cookies) of the one
// browser, closed with the test. Its time limit only stops a hung tab:
// a tab that checks every console page with axe took 92 s while make test ran
// its packages three at a time on a loaded machine.
func newTab(t *testing.T) context.Context { return chromium.NewTab(t, browser, 3*time.Minute) }

// What the tests do in a tab, as the browser tests and the provider tests
// both do it.
var (
	open     = chromium.Open
	click    = chromium.Click
	text     = chromium.Text
	location = chromium.Location
	exists   = chromium.Exists
)

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// person is who signs in at the development IdP.
type person struct {
	Name, Email, EPPN string
	NoFedID           bool
	// ACR replaces what the IdP filled in from acr_values when set; "-"
	// clears it (a weaker sign-in than asked for).
	ACR string
}

// signInAtIdP fills the development IdP's form and submits it; the browser
// must be on that form.
func signInAtIdP(t *testing.T, ctx context.Context, p person) int64 {
	t.Helper()
	if !strings.Contains(location(t, ctx), "/idp/authorize") {
		t.Fatalf("expected the IdP's sign-in form, at %s", location(t, ctx))
	}
	eppn := p.EPPN
	if eppn == "" {
		eppn = p.Email
	}
	acr := p.ACR
	if acr == "-" {
		acr = ""
	}
	script := fmt.Sprintf(`(() => { const set = (id, v) => { document.getElementById(id).value = v; };
		set("name", %q); set("email", %q); set("eppn", %q); document.getElementById("fedid").checked = %v;
		if (%v) { set("acr", %q); } return true; })()`, p.Name, p.Email, eppn, !p.NoFedID, p.ACR != "", acr)
	_, err := chromedp.Run(ctx, chromedp.Evaluate[bool](script))
	must(t, err)
	return click(t, ctx, "#signin")
}

// axeViolation is one rule axe-core found broken.
type axeViolation struct {
	ID     string `json:"id"`
	Impact string `json:"impact"`
	Help   string `json:"help"`
	Nodes  []struct {
		Target  []any  `json:"target"`
		Summary string `json:"failureSummary"`
	} `json:"nodes"`
}

// checkAxe runs axe-core's WCAG 2.1 A and AA rules on the page and fails
// the test for every violation.
func checkAxe(t *testing.T, ctx context.Context) {
	t.Helper()
	_, err := chromedp.Run(ctx, chromedp.Evaluate[bool](axeJS+";true"))
	must(t, err)
	violations, err := chromedp.Run(ctx, chromedp.Evaluate[[]axeViolation](
		`axe.run(document, {runOnly: {type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]}}).then(r => r.violations)`,
		chromedp.EvalAwaitPromise))
	must(t, err)
	for _, v := range violations {
		t.Errorf("axe %s (%s) at %s: %s %v", v.ID, v.Impact, location(t, ctx), v.Help, v.Nodes)
	}
}

// sessionCookie is the browser's session cookie for the stack, nil when
// it holds none.
func sessionCookie(t *testing.T, ctx context.Context) *network.Cookie {
	t.Helper()
	cookies, err := chromedp.Run(ctx, chromedp.Action[[]*network.Cookie](func(ctx context.Context, tg *chromedp.Target) ([]*network.Cookie, error) {
		res, err := cdp.Call(ctx, tg, network.GetCookies, network.GetCookiesParams{URLs: []string{stk.URL + "/"}})
		return res.Cookies, err
	}))
	must(t, err)
	for _, c := range cookies {
		if c.Name == "__Host-invite-session" {
			remember(c.Value)
			return c
		}
	}
	return nil
}

// screenshot saves a PNG of the page at width px into $SCREENSHOTS_DIR
// (the README's pictures: SCREENSHOTS_DIR=localstack/browsertest/screenshots).
func screenshot(t *testing.T, ctx context.Context, name string, width int64) {
	t.Helper()
	dir := os.Getenv("SCREENSHOTS_DIR")
	if dir == "" {
		dir = t.TempDir()
	}
	must(t, chromedp.Do(ctx, chromedp.EmulateViewport(width, 700)))
	png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	must(t, err)
	must(t, chromedp.Do(ctx, chromedp.EmulateViewport(1024, 800)))
	must(t, os.WriteFile(filepath.Join(dir, name), png, 0o644))
}

func attr(t *testing.T, ctx context.Context, selector, name string) string {
	t.Helper()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[string](fmt.Sprintf("document.querySelector(%q).getAttribute(%q)", selector, name)))
	must(t, err)
	return v
}

// acceptWithBearer accepts an invitation through the JSON API, as a person
// with a token of the development IdP.
func acceptWithBearer(t *testing.T, link, email string) {
	t.Helper()
	hash := strings.SplitN(link, "hash=", 2)[1]
	tok, err := stk.IdP.Mint(map[string]any{"sub": "urn:collab:person:" + email, "email": email, "eduperson_principal_name": email}, "invite", time.Hour)
	must(t, err)
	remember(tok)
	// The accept body names the invitation of the hash, as the reference's
	// client does: read its id from the public view first.
	var inv struct {
		ID int64 `json:"id"`
	}
	if got := api(t, "GET", "/api/v1/invitations/public?hash="+url.QueryEscape(hash), nil, &inv); got != http.StatusOK || inv.ID == 0 {
		t.Fatalf("public view of the invitation = %d, id %d", got, inv.ID)
	}
	body, _ := json.Marshal(map[string]any{"hash": hash, "invitationId": inv.ID})
	req, _ := http.NewRequest("POST", stk.URL+"/api/v1/invitations/accept", bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+tok)
	resp, err := http.DefaultClient.Do(req)
	must(t, err)
	resp.Body.Close()
	if resp.StatusCode != http.StatusCreated {
		t.Fatalf("accept through the API = %d", resp.StatusCode)
	}
}

// darkMode makes the page's prefers-color-scheme dark (on) or light.
func darkMode(t *testing.T, ctx context.Context, on bool) {
	t.Helper()
	scheme := "light"
	if on {
		scheme = "dark"
	}
	must(t, chromedp.Do(ctx, chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
			Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: scheme}}})
		return err
	})))
	time.Sleep(500 * time.Millisecond) // Pico's colour transitions (0.2 s) end before anyone measures
}

// shootBothWidths saves the page at full width and at 320 px when
// SCREENSHOTS_DIR is set (a review of every page, not the README's
// pictures); without it the run spends no time on pictures.
func shootBothWidths(t *testing.T, ctx context.Context, page, lang string) {
	t.Helper()
	if os.Getenv("SCREENSHOTS_DIR") == "" {
		return
	}
	name := strings.Trim(regexp.MustCompile(`[^a-z0-9]+`).ReplaceAllString(strings.ToLower(page), "-"), "-")
	screenshot(t, ctx, name+"-"+lang+".png", 1024)
	screenshot(t, ctx, name+"-"+lang+"-320.png", 320)
}
