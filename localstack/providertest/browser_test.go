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
)

var (
	linkPattern = regexp.MustCompile(`https?://[^\s"<>]+/invitation/accept\?hash=[A-Za-z0-9_\-]+`)
	formAction  = regexp.MustCompile(`<form method="post" action="([^"]+)"`)
)

// newTab is a tab in a fresh browser context (no cookies) of the one
// browser, closed with the test.
func newTab(t *testing.T) context.Context {
	t.Helper()
	ctx, cancel := chromedp.NewContext(browser, chromedp.WithNewBrowserContext())
	t.Cleanup(cancel)
	if err := chromedp.Do(ctx, chromedp.Navigate("about:blank")); err != nil {
		t.Fatal(err)
	}
	tctx, cancelTimeout := context.WithTimeout(ctx, 3*time.Minute)
	t.Cleanup(cancelTimeout)
	return tctx
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// open navigates and returns the HTTP status of the page.
func open(t *testing.T, ctx context.Context, url string) int64 {
	t.Helper()
	resp, err := chromedp.Run(ctx, chromedp.NavigateResponse(url))
	must(t, err)
	return resp.Status
}

// click clicks and waits for the next page to load.
func click(t *testing.T, ctx context.Context, selector string) int64 {
	t.Helper()
	resp, err := chromedp.RunResponse(ctx, chromedp.Click(chromedp.CSS(selector), chromedp.NodeVisible))
	must(t, err)
	if resp == nil {
		return 0
	}
	return resp.Status
}

func text(t *testing.T, ctx context.Context, selector string) string {
	t.Helper()
	s, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS(selector), chromedp.NodeVisible))
	must(t, err)
	return strings.Join(strings.Fields(s), " ")
}

func location(t *testing.T, ctx context.Context) string {
	t.Helper()
	l, err := chromedp.Run(ctx, chromedp.Location())
	must(t, err)
	return l
}

func exists(t *testing.T, ctx context.Context, selector string) bool {
	t.Helper()
	n, err := chromedp.Run(ctx, chromedp.Evaluate[bool](fmt.Sprintf("document.querySelector(%q) !== null", selector)))
	must(t, err)
	return n
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
