package browsertest

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"

	cdpbrowser "github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"

	"github.com/edu-invite/invite/shared/i18n"
)

// TestConsoleCopyLink: an inviter sees the link of each open invitation
// they may manage on the role page and copies it with "Copy link" (the
// clipboard holds the link, a polite live region says so in the page's
// language); a manager invitation, which an inviter may not manage, shows
// no link. After a resend the result page offers the same link to copy.
// Without JavaScript the link is a read-only field and no button shows.
// axe-core finds nothing on either page, en and nl.
func TestConsoleCopyLink(t *testing.T) {
	role := roleInOrg(t, "Copy links", "org-copy")
	inviter := makePerson(t, "Ivo Copier", "ivo.copy@example.org", role, "INVITER", nil)
	guestLink := invite(t, role, "guest.copy@example.org", "en", "")
	body := map[string]any{"intendedAuthority": "MANAGER", "invites": []string{"manager.copy@example.org"}, "roleIdentifiers": []int64{role},
		"expiryDate": clock.Now().Unix() + 86400}
	if got := api(t, "POST", "/api/external/v1/invitations", body, nil); got != http.StatusCreated {
		t.Fatalf("invite a manager = %d", got)
	}
	rolePage := fmt.Sprintf("%s/console/roles/%d", stk.URL, role)
	guestRow := `tr[data-invitation="guest.copy@example.org"]`
	for _, lang := range []string{"en", "nl"} {
		t.Run(lang, func(t *testing.T) {
			ctx := consoleSignIn(t, inviter.person, lang)
			grantClipboard(t, ctx)
			if got := open(t, ctx, rolePage); got != http.StatusOK {
				t.Fatalf("role page = %d", got)
			}
			if got := attr(t, ctx, guestRow+" input[readonly]", "value"); got != guestLink {
				t.Fatalf("the open invitation's link on the role page = %q, want the mailed %q", got, guestLink)
			}
			if exists(t, ctx, `tr[data-invitation="manager.copy@example.org"] input`) {
				t.Error("an inviter is shown the link of a manager invitation they may not manage")
			}
			copyAndCheck(t, ctx, guestRow+" button.copy", guestLink, lang)
			checkAxe(t, ctx)
			shootBothWidths(t, ctx, "copy-role", lang)
			// With the keyboard: Tab from the link field reaches the button,
			// Enter copies again and the message is said again.
			_, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`navigator.clipboard.writeText("").then(() => true)`, chromedp.EvalAwaitPromise))
			must(t, err)
			must(t, chromedp.Do(ctx, chromedp.Focus(chromedp.CSS(guestRow+" input[readonly]"))))
			must(t, chromedp.Do(ctx, chromedp.KeyEvent("\t")))
			if got, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.activeElement.className`)); err != nil || got != "secondary copy" {
				t.Fatalf("Tab from the link field went to %q (%v), want the Copy link button", got, err)
			}
			must(t, chromedp.Do(ctx, chromedp.KeyEvent("\r")))
			eventually(t, "the link copied with Enter", func() bool {
				got, err := chromedp.Run(ctx, chromedp.Evaluate[string]("navigator.clipboard.readText()", chromedp.EvalAwaitPromise))
				must(t, err)
				return got == guestLink
			})

			// A resend keeps the link and offers it again.
			if got := click(t, ctx, guestRow+` form[action$="/resend"] button`); got != http.StatusOK {
				t.Fatalf("resend = %d", got)
			}
			if got := attr(t, ctx, "#link-0", "value"); got != guestLink {
				t.Errorf("after a resend the link is %q, want the same %q", got, guestLink)
			}
			copyAndCheck(t, ctx, "#invited button.copy", guestLink, lang)
			checkAxe(t, ctx)
			shootBothWidths(t, ctx, "copy-resent", lang)
		})
	}

	t.Run("without JavaScript", func(t *testing.T) {
		ctx := consoleSignIn(t, inviter.person, "en")
		_, err := chromedp.Call(ctx, emulation.SetScriptExecutionDisabled, emulation.SetScriptExecutionDisabledParams{Value: true})
		must(t, err)
		open(t, ctx, rolePage)
		field, err := chromedp.Run(ctx, chromedp.Attributes(chromedp.CSS(guestRow+" input")))
		must(t, err)
		if _, ro := field["readonly"]; !ro || field["value"] != guestLink {
			t.Errorf("without JavaScript the link field is %v, want read-only with the link", field)
		}
		button, err := chromedp.Run(ctx, chromedp.Attributes(chromedp.CSS(guestRow+" button.copy")))
		must(t, err)
		if _, hidden := button["hidden"]; !hidden {
			t.Error("without JavaScript the Copy link button shows, and would do nothing")
		}
		if got := text(t, ctx, guestRow+" label"); !strings.Contains(got, "guest.copy@example.org") {
			t.Errorf("the link field's label %q does not name the recipient", got)
		}
	})
}

// grantClipboard lets the tab's pages write and read the clipboard, as a
// person would allow when asked.
func grantClipboard(t *testing.T, ctx context.Context) {
	t.Helper()
	for _, name := range []string{"clipboard-read", "clipboard-write"} {
		_, err := chromedp.CallBrowser(ctx, cdpbrowser.SetPermission, cdpbrowser.SetPermissionParams{Permission: &cdpbrowser.PermissionDescriptor{Name: name},
			Setting: cdpbrowser.PermissionSettingGranted, Origin: stk.URL, BrowserContextID: chromedp.FromContext(ctx).BrowserContextID})
		must(t, err)
	}
}

// copyAndCheck clicks a Copy link button and checks what the clipboard
// holds and what the live region beside it says.
func copyAndCheck(t *testing.T, ctx context.Context, button, want, lang string) {
	t.Helper()
	must(t, chromedp.Do(ctx, chromedp.Click(chromedp.CSS(button), chromedp.NodeVisible)))
	field := attr(t, ctx, button, "data-copy")
	if got, visible := attr(t, ctx, button, "aria-label"), text(t, ctx, button); visible == "" || !strings.HasPrefix(got, visible) {
		t.Errorf("the button's name %q does not start with its visible text %q", got, visible)
	}
	var said string
	eventually(t, "the copied message", func() bool {
		said = text(t, ctx, "#"+field+"-status")
		return said != ""
	})
	if said != i18n.T(lang, "console.copy.copied") {
		t.Fatalf("after Copy link the page says %q, want %q", said, i18n.T(lang, "console.copy.copied"))
	}
	if role := attr(t, ctx, "#"+field+"-status", "role"); role != "status" {
		t.Errorf("the message is in a %q region, want a polite status", role)
	}
	got, err := chromedp.Run(ctx, chromedp.Evaluate[string]("navigator.clipboard.readText()", chromedp.EvalAwaitPromise))
	must(t, err)
	if got != want {
		t.Errorf("the clipboard holds %q, want %q", got, want)
	}
}
