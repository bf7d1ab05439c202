package browsertest

import (
	"fmt"
	"net/http"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestInviteFormEnter: in Chromium, Enter in the invite form's role search
// field searches (the form again, the roles found offered, what was typed
// kept, nobody invited), and again when pressed a second time on the same
// query (static/search.js; without scripts that Enter would send), and
// Enter in a one-line field of the invitation (the expiry date) sends it.
func TestInviteFormEnter(t *testing.T) {
	role := roleInOrg(t, "Enter key lab", "org-enter")
	roleInOrg(t, "Other desk", "org-enter")
	mgr := makePerson(t, "Erin Enter", "erin.enter@example.org", role, "MANAGER", nil)
	ctx := consoleSignIn(t, mgr.person, "en")
	open(t, ctx, stk.URL+fmt.Sprintf("/console/invite?role=%d", role))
	typed := "enter.guest@example.org"
	setValue(t, ctx, "#recipients", typed)
	value := func(selector string) string {
		v, err := chromedp.Run(ctx, chromedp.Evaluate[string](fmt.Sprintf(`document.querySelector(%q).value`, selector)))
		must(t, err)
		return v
	}

	must(t, chromedp.Do(ctx, chromedp.SendKeys(chromedp.CSS("#q"), "enter")))
	resp, err := chromedp.RunResponse(ctx, chromedp.KeyEvent("\r"))
	must(t, err)
	if resp == nil || resp.Status != http.StatusOK {
		t.Fatalf("Enter in the role search: %+v, want the form again (200)", resp)
	}
	if got := value("#q"); got != "enter" {
		t.Errorf("after the search the field holds %q", got)
	}
	if got := value("#recipients"); got != typed {
		t.Errorf("the search lost the typed recipients: %q", got)
	}
	if exists(t, ctx, `li[data-recipient="`+typed+`"]`) {
		t.Fatal("Enter in the role search sent the invitation")
	}
	offered, err := chromedp.Run(ctx, chromedp.Evaluate[int](`document.querySelectorAll('input[name="role"]').length`))
	must(t, err)
	if offered != 1 {
		t.Errorf("the search for %q offers %d roles, want the chosen one that matches", "enter", offered)
	}

	// The same query again: still a search, never the invitation.
	must(t, chromedp.Do(ctx, chromedp.Focus(chromedp.CSS("#q"))))
	resp, err = chromedp.RunResponse(ctx, chromedp.KeyEvent("\r"))
	must(t, err)
	if resp == nil || resp.Status != http.StatusOK {
		t.Fatalf("a second Enter in the role search: %+v, want the form again (200)", resp)
	}
	if exists(t, ctx, `li[data-recipient="`+typed+`"]`) {
		t.Fatal("a second Enter on the same query sent the invitation")
	}
	if got := value("#recipients"); got != typed {
		t.Errorf("the second search lost the typed recipients: %q", got)
	}

	must(t, chromedp.Do(ctx, chromedp.Focus(chromedp.CSS("#expiry"))))
	resp, err = chromedp.RunResponse(ctx, chromedp.KeyEvent("\r"))
	must(t, err)
	if resp == nil || resp.Status != http.StatusCreated {
		t.Fatalf("Enter in the expiry date: %+v, want the invitation sent (201)", resp)
	}
	if !exists(t, ctx, `li[data-recipient="`+typed+`"]`) {
		t.Error("the sent form does not name the recipient")
	}
}
