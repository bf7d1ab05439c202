package browsertest

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// TestKeyboardOnly accepts an invitation with the keyboard alone: Tab to
// the control, Enter to use it. The skip link comes first on every page.
func TestKeyboardOnly(t *testing.T) {
	role := newRole(t, "Keyboard", roleOptions{})
	link := invite(t, role, "kim@example.org", "en", `<b id="injected">Hi</b> & welcome`)
	ctx := newTab(t)
	open(t, ctx, link)
	if exists(t, ctx, "#injected") || !strings.Contains(text(t, ctx, "blockquote"), `<b id="injected">Hi</b> & welcome`) {
		t.Errorf("the personal message is not shown as plain text: %q", text(t, ctx, "blockquote"))
	}

	// Invited with the super user's API token and a role without an
	// inviterDisplayName: the page names nobody rather than the token.
	if main := text(t, ctx, "main"); !strings.Contains(main, "You have been invited as a guest to:") || strings.Contains(main, "bootstrap") {
		t.Errorf("the page names the inviter wrongly: %s", main)
	}
	if got := tabTo(t, ctx, "a.skip", 1); !strings.Contains(got, "Skip to main content") {
		t.Errorf("the first Tab reaches %q, want the skip link", got)
	}
	tabTo(t, ctx, "#signin", 10)
	enter(t, ctx)
	signInAtIdP(t, ctx, person{Name: "Kim", Email: "kim@example.org"})
	tabTo(t, ctx, "#accept", 10)
	enter(t, ctx)
	if !strings.Contains(location(t, ctx), "/my/welcome") {
		t.Fatalf("Enter on Accept leads to %s", location(t, ctx))
	}
}

// tabTo presses Tab until the focused element matches selector (at most
// max times) and returns its text; it fails when focus never gets there.
func tabTo(t *testing.T, ctx context.Context, selector string, max int) string {
	t.Helper()
	for i := 0; i < max; i++ {
		must(t, chromedp.Do(ctx, chromedp.KeyEvent(kb.Tab)))
		focused, err := chromedp.Run(ctx, chromedp.Evaluate[string](fmt.Sprintf(
			`document.activeElement && document.activeElement.matches(%q) ? document.activeElement.textContent : ""`, selector)))
		must(t, err)
		if focused != "" {
			return focused
		}
	}
	t.Fatalf("%d Tabs never reach %s", max, selector)
	return ""
}

func enter(t *testing.T, ctx context.Context) {
	t.Helper()
	_, err := chromedp.RunResponse(ctx, chromedp.KeyEvent(kb.Enter))
	must(t, err)
}
