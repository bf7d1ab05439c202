package browsertest

import (
	"strings"
	"testing"

	"github.com/edu-invite/invite/shared/i18n"
)

// TestLanguageSwitch: an English invitation opens in English; the switch
// on the page turns it Dutch, and the choice holds on the next pages.
func TestLanguageSwitch(t *testing.T) {
	role := newRole(t, "Switch", roleOptions{})
	link := invite(t, role, "mia@example.org", "en", "")
	ctx := newTab(t)
	open(t, ctx, link)
	if got := text(t, ctx, "h1"); got != i18n.T("en", "inv.title") {
		t.Fatalf("heading = %q, want English", got)
	}
	click(t, ctx, `nav a[hreflang="nl"]`)
	if got := text(t, ctx, "h1"); got != i18n.T("nl", "inv.title") || attr(t, ctx, "html", "lang") != "nl" {
		t.Errorf("after the switch the heading is %q", got)
	}
	if !strings.Contains(location(t, ctx), "hash=") {
		t.Errorf("the switch left the invitation: %s", location(t, ctx))
	}
	checkAxe(t, ctx)
	open(t, ctx, stk.URL+"/")
	if got := text(t, ctx, "h1"); got != i18n.T("nl", "home.anon.title") {
		t.Errorf("the start page after the switch says %q, want Dutch", got)
	}
	checkAxe(t, ctx)
}

// TestWelcomeNeedsSignIn: a personal page sends an anonymous visitor to
// sign in and back.
func TestWelcomeNeedsSignIn(t *testing.T) {
	status, to, _ := newAgent(t).do("GET", stk.URL+"/my/welcome?roles=1", nil, nil)
	if status != 303 || to != stk.URL+"/login?next=%2Fmy%2Fwelcome%3Froles%3D1" {
		t.Errorf("anonymous welcome = %d to %s", status, to)
	}
}
