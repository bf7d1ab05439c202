package chromium

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// What the browser suites do in a tab, each failing the test on an error.

// NewTab is a tab in a fresh browser context (no cookies) of browser,
// closed with the test; every action in it must be done within timeout.
func NewTab(t *testing.T, browser context.Context, timeout time.Duration) context.Context {
	t.Helper()
	ctx, cancel := chromedp.NewContext(browser, chromedp.WithNewBrowserContext())
	t.Cleanup(cancel)
	if err := chromedp.Do(ctx, chromedp.Navigate("about:blank")); err != nil {
		t.Fatal(err)
	}
	tctx, cancelTimeout := context.WithTimeout(ctx, timeout)
	t.Cleanup(cancelTimeout)
	return tctx
}

// Open navigates and returns the HTTP status of the page.
func Open(t *testing.T, ctx context.Context, url string) int64 {
	t.Helper()
	resp, err := chromedp.Run(ctx, chromedp.NavigateResponse(url))
	if err != nil {
		t.Fatal(err)
	}
	return resp.Status
}

// Click clicks and waits for the next page to load; it returns that
// page's HTTP status, 0 where the click loaded none.
func Click(t *testing.T, ctx context.Context, selector string) int64 {
	t.Helper()
	resp, err := chromedp.RunResponse(ctx, chromedp.Click(chromedp.CSS(selector), chromedp.NodeVisible))
	if err != nil {
		t.Fatal(err)
	}
	if resp == nil {
		return 0
	}
	return resp.Status
}

// Text is the visible text of the element, its white space folded.
func Text(t *testing.T, ctx context.Context, selector string) string {
	t.Helper()
	s, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS(selector), chromedp.NodeVisible))
	if err != nil {
		t.Fatal(err)
	}
	return strings.Join(strings.Fields(s), " ")
}

// Location is the tab's address.
func Location(t *testing.T, ctx context.Context) string {
	t.Helper()
	l, err := chromedp.Run(ctx, chromedp.Location())
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// Exists says whether the page has an element the selector matches.
func Exists(t *testing.T, ctx context.Context, selector string) bool {
	t.Helper()
	n, err := chromedp.Run(ctx, chromedp.Evaluate[bool](fmt.Sprintf("document.querySelector(%q) !== null", selector)))
	if err != nil {
		t.Fatal(err)
	}
	return n
}
