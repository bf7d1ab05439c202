package browsertest

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/edu-invite/invite/shared/domain"
	"github.com/edu-invite/invite/shared/i18n"
)

// TestConsolePagesAccessible opens every console page as a super user in
// English and Dutch, at full width and at 320 px, and runs axe-core's WCAG
// 2.1 A/AA rules on each; the page speaks its language.
func TestConsolePagesAccessible(t *testing.T) {
	role := roleInOrg(t, "Accessible", "org-a11y")
	super := makePerson(t, "Ann Access", "ann.a11y@example.org", role, "GUEST", func(u *domain.User) { u.SuperUser = true })
	member := makePerson(t, "Bea Member", "bea.a11y@example.org", role, "GUEST", nil)
	body := map[string]any{"intendedAuthority": "GUEST", "invites": []string{"open.a11y@example.org"}, "roleIdentifiers": []int64{role},
		"expiryDate": clock.Now().Unix() + 86400}
	if got := api(t, "POST", "/api/external/v1/invitations", body, nil); got != http.StatusCreated {
		t.Fatalf("invite = %d", got)
	}
	for _, lang := range []string{"en", "nl"} {
		t.Run(lang, func(t *testing.T) {
			ctx := consoleSignIn(t, super.person, lang)
			pages := []string{"/console", "/console/roles", "/console/roles?q=access&sort=name&dir=desc", fmt.Sprintf("/console/roles/%d", role),
				fmt.Sprintf("/console/roles/%d/edit", role), fmt.Sprintf("/console/roles/%d/delete", role), "/console/roles/new",
				fmt.Sprintf("/console/invite?role=%d", role), "/console/people", fmt.Sprintf("/console/people/%d", member.UserID),
				"/console/operations", "/console/audit", "/console/audit?role=" + fmt.Sprint(role) + "&action=ADD&from=2020-01-01", "/console/tokens",
				"/console/organizations"}
			for _, path := range pages {
				if got := open(t, ctx, stk.URL+path); got != http.StatusOK {
					t.Errorf("%s = %d", path, got)
					continue
				}
				if got := attr(t, ctx, "html", "lang"); got != lang {
					t.Errorf("%s: page language %q", path, got)
				}
				if main := text(t, ctx, "main"); strings.Contains(main, "console.") {
					t.Errorf("%s shows a message key: %s", path, main)
				}
				checkAxe(t, ctx)
				noSidewaysScroll(t, ctx, path, ".scroll")
				must(t, chromedp.Do(ctx, chromedp.EmulateViewport(320, 700)))
				checkAxe(t, ctx)
				// At 320 px each table row is a block: nothing scrolls sideways.
				noSidewaysScroll(t, ctx, path, ".scroll")
				must(t, chromedp.Do(ctx, chromedp.EmulateViewport(1024, 800)))
				shootBothWidths(t, ctx, "a11y"+path, lang)
			}
			// The pages other tests check with axe-core, in the review's
			// pictures too (only when SCREENSHOTS_DIR is set).
			if os.Getenv("SCREENSHOTS_DIR") != "" {
				for _, path := range []string{"/console/admins?org=org-a11y", "/console/applications", "/console/connections/sample-sp",
					"/console/applications/new", "/console/connections/new"} {
					open(t, ctx, stk.URL+path)
					shootBothWidths(t, ctx, "review"+path, lang)
				}
			}
			// A reconcile started from the operations page lands on its
			// job, shown accessibly while it waits and once it is done.
			open(t, ctx, stk.URL+"/console/operations")
			click(t, ctx, "#reconcile-form button")
			job := location(t, ctx)
			if !strings.Contains(job, "/console/operations/reconcile/") {
				t.Errorf("starting a reconcile led to %s", job)
			} else {
				checkAxe(t, ctx)
				for deadline := time.Now().Add(20 * time.Second); attr(t, ctx, "#reconcile-status", "data-status") != "succeeded"; {
					if time.Now().After(deadline) {
						t.Fatalf("the reconcile job is %s: %s", attr(t, ctx, "#reconcile-status", "data-status"), text(t, ctx, "main"))
					}
					time.Sleep(200 * time.Millisecond)
					open(t, ctx, job)
				}
				counted := map[string]string{"en": "Users compared", "nl": "Vergeleken gebruikers"}[lang]
				if main := text(t, ctx, "main"); strings.Contains(main, "console.") || !strings.Contains(text(t, ctx, "#reconcile-counts"), counted) {
					t.Errorf("the finished job shows no counts: %s", main)
				}
				checkAxe(t, ctx)
			}
			// A people search is posted (the words stay out of the address);
			// its sort and pages post it again.
			open(t, ctx, stk.URL+"/console/people")
			setValue(t, ctx, "#q", "bea")
			click(t, ctx, "form.search button")
			if got := text(t, ctx, "#people tbody"); !strings.Contains(got, "bea.a11y@example.org") || strings.Contains(location(t, ctx), "bea") {
				t.Errorf("people search for bea: %q at %s", got, location(t, ctx))
			}
			shootBothWidths(t, ctx, "a11y-people-search", lang)
			click(t, ctx, `#people th button[value="name.desc"]`)
			if got := attr(t, ctx, "#people th[aria-sort]", "aria-sort"); got != "descending" || !strings.Contains(text(t, ctx, "#people tbody"), "bea.a11y") {
				t.Errorf("after sorting the search result: aria-sort %q, rows %q", got, text(t, ctx, "#people tbody"))
			}
			checkAxe(t, ctx)
			// The invite form's result with "show me the links", and a form
			// sent back with errors.
			open(t, ctx, stk.URL+fmt.Sprintf("/console/invite?role=%d", role))
			setValue(t, ctx, "#recipients", "no-address, also wrong")
			setValue(t, ctx, "#expiry", "")
			if got := click(t, ctx, "#send"); got != http.StatusBadRequest {
				t.Errorf("invalid invite = %d", got)
			}
			if got := text(t, ctx, "#expiry-error"); got != i18n.T(lang, "console.invite.err.expiry") {
				t.Errorf("expiry error = %q", got)
			}
			checkAxe(t, ctx)
			// A role search that finds nothing: the form comes back with
			// the chosen role and what was typed, and says so next to the
			// search field.
			setValue(t, ctx, "#q", "nosuchroleword")
			if got := click(t, ctx, "#search-roles"); got != http.StatusOK {
				t.Errorf("role search in the invite form = %d", got)
			}
			if got := text(t, ctx, "#q-error"); got != i18n.T(lang, "console.invite.noRoles") {
				t.Errorf("role search message = %q", got)
			}
			kept, err := chromedp.Run(ctx, chromedp.Evaluate[bool](fmt.Sprintf(
				`document.querySelector('input[name="role"][value="%d"]').checked && document.querySelector("#recipients").value === "no-address, also wrong"`, role)))
			must(t, err)
			if !kept {
				t.Error("the role search lost the chosen role or the typed recipients")
			}
			checkAxe(t, ctx)
			setValue(t, ctx, "#recipients", "links."+lang+"@example.org")
			setValue(t, ctx, "#expiry", clock.Now().AddDate(0, 0, 7).Format("2006-01-02"))
			must(t, chromedp.Do(ctx, chromedp.Click(chromedp.CSS("#nomail"))))
			if got := click(t, ctx, "#send"); got != http.StatusCreated {
				t.Fatalf("invite without e-mail = %d", got)
			}
			if got := text(t, ctx, ".mail-state"); got != i18n.T(lang, "console.invited.noMail") {
				t.Errorf("mail state = %q", got)
			}
			shootBothWidths(t, ctx, "a11y-invited", lang)
			link := attr(t, ctx, "#link-0", "value")
			if !linkPattern.MatchString(link) {
				t.Errorf("the result shows no invitation link: %q", link)
			} else {
				remember(strings.SplitN(link, "hash=", 2)[1])
			}
			checkAxe(t, ctx)
		})
	}
}

// TestConsoleKeyboard fills and sends the invite form with the keyboard
// only: Tab reaches every field and the button in order, no trap.
func TestConsoleKeyboard(t *testing.T) {
	role := roleInOrg(t, "Keyboard", "org-kbd")
	mgr := makePerson(t, "Kim Keys", "kim.kbd@example.org", role, "MANAGER", nil)
	ctx := consoleSignIn(t, mgr.person, "en")
	open(t, ctx, stk.URL+fmt.Sprintf("/console/invite?role=%d", role))
	focused := func() string {
		id, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.activeElement ? (document.activeElement.id || document.activeElement.tagName) : ""`))
		must(t, err)
		return id
	}
	var seen []string
	for i := 0; i < 60 && focused() != "send"; i++ {
		must(t, chromedp.Do(ctx, chromedp.KeyEvent("\t")))
		seen = append(seen, focused())
		if focused() == "recipients" {
			must(t, chromedp.Do(ctx, chromedp.SendKeys(chromedp.CSS("#recipients"), "kbd.guest@example.org")))
		}
	}
	if focused() != "send" {
		t.Fatalf("Tab never reached the Invite button: %v", seen)
	}
	for _, want := range []string{"recipients", "csv", "authority", "message", "language", "expiry", "endDate", "nomail"} {
		found := false
		for _, s := range seen {
			found = found || s == want
		}
		if !found {
			t.Errorf("Tab skipped #%s: %v", want, seen)
		}
	}
	resp, err := chromedp.RunResponse(ctx, chromedp.KeyEvent("\r"))
	must(t, err)
	if resp == nil || resp.Status != http.StatusCreated {
		t.Fatalf("Enter on the Invite button did not invite: %+v", resp)
	}
}

// noSidewaysScroll fails when the page (and each element of within, if
// given) is wider than its box: a person on a narrow screen would have to
// scroll sideways to read it.
func noSidewaysScroll(t *testing.T, ctx context.Context, path, within string) {
	t.Helper()
	wide, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](fmt.Sprintf(`(() => {
		const out = [];
		const root = document.documentElement;
		if (root.scrollWidth > root.clientWidth + 1) out.push("page " + root.scrollWidth + " > " + root.clientWidth);
		if (%q) document.querySelectorAll(%q).forEach(e => {
			if (e.scrollWidth > e.clientWidth + 1) out.push((e.getAttribute("aria-labelledby") || e.className) + " " + e.scrollWidth + " > " + e.clientWidth);
		});
		return out;
	})()`, within, within)))
	must(t, err)
	for _, w := range wide {
		t.Errorf("%s scrolls sideways: %s", path, w)
	}
}
