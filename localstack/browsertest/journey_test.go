package browsertest

import (
	"net/http"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestGuestJourney is the guest's whole way in: the link in the captured
// e-mail, the invitation page, sign-in at the development IdP, Accept,
// "you now have access" with the landing page until it says provisioned,
// and the SCIM SP holding the user in the role's group.
func TestGuestJourney(t *testing.T) {
	roleID := newRole(t, "Research wiki", roleOptions{InviterDisplayName: "Prof. Ann Smith"})
	link := invite(t, roleID, "alice.archer@example.org", "en", "Welcome to the group!\nSee you on Monday.")
	mail := mailTo(t, "alice.archer@example.org")
	for _, want := range []string{"Prof. Ann Smith", "as a guest"} {
		if !strings.Contains(mail, want) {
			t.Errorf("the e-mail does not say %q:\n%s", want, mail)
		}
	}
	ctx := newTab(t)

	if got := open(t, ctx, link); got != http.StatusOK {
		t.Fatalf("invitation page = %d", got)
	}
	main := text(t, ctx, "main")
	for _, want := range []string{"Prof. Ann Smith invited you as a guest to:", "Research wiki", "Sample application",
		"Welcome to the group!", "Accept this invitation before", "Your access lasts 365 days"} {
		if !strings.Contains(main, want) {
			t.Errorf("invitation page lacks %q: %s", want, main)
		}
	}
	checkAxe(t, ctx)
	screenshot(t, ctx, "acceptance-page.png", 800)
	screenshot(t, ctx, "acceptance-page-320.png", 320)

	click(t, ctx, "#signin")
	if got := signInAtIdP(t, ctx, person{Name: "Alice Archer", Email: "alice.archer@example.org"}); got != http.StatusOK {
		t.Fatalf("back from the IdP = %d at %s", got, location(t, ctx))
	}
	if !strings.HasPrefix(location(t, ctx), link) || !exists(t, ctx, "#accept") {
		t.Fatalf("after sign-in the browser is at %s without an Accept button", location(t, ctx))
	}
	c := sessionCookie(t, ctx)
	if c == nil || !c.Secure || !c.HTTPOnly || string(c.SameSite) != "Lax" || c.Path != "/" || c.Domain != "127.0.0.1" {
		t.Fatalf("session cookie = %+v, want Secure, HttpOnly, SameSite=Lax, path / on this host only", c)
	}
	checkAxe(t, ctx)

	click(t, ctx, "#accept")
	if !strings.Contains(location(t, ctx), "/my/welcome") {
		t.Fatalf("after Accept the browser is at %s", location(t, ctx))
	}
	if got := text(t, ctx, "h1"); got != "You now have access" {
		t.Errorf("welcome heading = %q", got)
	}
	// refresh.js updates the status in place until the SP has the user.
	must(t, chromedp.Do(ctx, chromedp.WaitVisible(chromedp.CSS(`#status li[data-status="provisioned"]`))))
	href, err := chromedp.Run(ctx, chromedp.AttributeValue(chromedp.CSS(`#status li a`), "href"))
	must(t, err)
	if href.Value != "https://wiki.example.org/start" {
		t.Errorf("landing page link = %q", href.Value)
	}
	checkAxe(t, ctx)
	screenshot(t, ctx, "welcome-320.png", 320)

	users := stk.SP.Users()
	var userID string
	for _, u := range users {
		if u.UserName == "alice.archer@example.org" {
			userID = u.ID
		}
	}
	if userID == "" {
		t.Fatalf("the SP has no user alice.archer@example.org: %+v", users)
	}
	member := false
	for _, g := range stk.SP.Groups() {
		if strings.HasPrefix(g.DisplayName, "Research wiki") {
			for _, m := range g.Members {
				member = member || m.Value == userID
			}
		}
	}
	if !member {
		t.Errorf("the SP's group does not have the user as member: %+v", stk.SP.Groups())
	}

	if got := open(t, ctx, stk.URL+"/"); got != http.StatusOK {
		t.Fatalf("my access = %d", got)
	}
	main = text(t, ctx, "main")
	for _, want := range []string{"My access", "Research wiki", "as a guest", "days left", "Open Sample application", "Ready"} {
		if !strings.Contains(main, want) {
			t.Errorf("my access lacks %q: %s", want, main)
		}
	}
	checkAxe(t, ctx)
	darkMode(t, ctx, true) // Pico follows the system's dark mode; so must our colours
	checkAxe(t, ctx)
	darkMode(t, ctx, false)
	screenshot(t, ctx, "my-access.png", 800)
	screenshot(t, ctx, "my-access-320.png", 320)

	// Signing out ends the session here and at the IdP, and comes home.
	click(t, ctx, `nav button[type="submit"]`)
	if sessionCookie(t, ctx) != nil || !exists(t, ctx, `a[href^="/login"]`) {
		t.Errorf("after sign-out the session cookie is still there or no sign-in link shows (at %s)", location(t, ctx))
	}
}
