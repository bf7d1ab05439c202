package providertest

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"

	"github.com/edu-invite/invite/localstack/browsertest/chromium"
)

var (
	linkPattern = regexp.MustCompile(`https?://[^\s"<>]+/invitation/accept\?hash=[A-Za-z0-9_\-]+`)
	formAction  = regexp.MustCompile(`<form method="post" action="([^"]+)"`)
)

// newTab is a tab in a fresh browser context (no cookies) of the one
// browser, closed with the test.
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

// signInAtProvider fills the provider's login form, with its second factor
// when mfa; the browser must be on that form.
func (w *world) signInAtProvider(t *testing.T, ctx context.Context, login string, mfa bool) int64 {
	t.Helper()
	if !strings.HasPrefix(location(t, ctx), w.issuer+"/interaction/") || !exists(t, ctx, "#login") {
		t.Fatalf("expected the provider's login form, at %s", location(t, ctx))
	}
	_, err := chromedp.Run(ctx, chromedp.Evaluate[bool](fmt.Sprintf(
		`(() => { document.getElementById("login").value = %q; document.getElementById("mfa").checked = %v; return true; })()`, login, mfa)))
	must(t, err)
	return click(t, ctx, "#sign-in")
}

// sessionCookie is the service's session cookie in the tab, nil if none.
func (w *world) sessionCookie(t *testing.T, ctx context.Context) *network.Cookie {
	t.Helper()
	cookies, err := chromedp.Run(ctx, chromedp.Action[[]*network.Cookie](func(ctx context.Context, tg *chromedp.Target) ([]*network.Cookie, error) {
		res, err := cdp.Call(ctx, tg, network.GetCookies, network.GetCookiesParams{URLs: []string{w.stk.URL + "/"}})
		return res.Cookies, err
	}))
	must(t, err)
	for _, c := range cookies {
		if c.Name == "__Host-invite-session" {
			return c
		}
	}
	return nil
}

// contextT is a browser tab.
type contextT = context.Context
