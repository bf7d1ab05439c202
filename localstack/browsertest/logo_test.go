package browsertest

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestApplicationLogoAndOrganization: the acceptance page and "my access"
// show each application's logo (a real image the stack serves, alt="" as
// the name is beside it) and its organization, in the page's language.
func TestApplicationLogoAndOrganization(t *testing.T) {
	role := newRole(t, "Logo lab", roleOptions{})
	link := invite(t, role, "lena.logo@example.org", "nl", "")
	ctx := newTab(t)
	if got := open(t, ctx, link); got != http.StatusOK {
		t.Fatalf("invitation page = %d", got)
	}
	checkLogo(t, ctx, "Voorbeeldapplicatie", "Voorbeelduniversiteit")
	checkAxe(t, ctx)

	click(t, ctx, `nav a[hreflang="en"]`)
	checkLogo(t, ctx, "Sample application", "Sample University")
	checkAxe(t, ctx)

	click(t, ctx, "#signin")
	if got := signInAtIdP(t, ctx, person{Name: "Lena Logo", Email: "lena.logo@example.org"}); got != http.StatusOK {
		t.Fatalf("back from the IdP = %d", got)
	}
	click(t, ctx, "#accept")
	if got := open(t, ctx, stk.URL+"/"); got != http.StatusOK {
		t.Fatalf("my access = %d", got)
	}
	checkLogo(t, ctx, "Open Sample application", "Sample University")
	checkAxe(t, ctx)
	click(t, ctx, `nav a[hreflang="nl"]`)
	checkLogo(t, ctx, "Voorbeeldapplicatie", "Voorbeelduniversiteit")
	checkAxe(t, ctx)
}

// checkLogo asserts the sample application's logo is on the page, loaded,
// with an empty alt, and that its name and organization are the text
// beside it.
func checkLogo(t *testing.T, ctx context.Context, name, org string) {
	t.Helper()
	if !exists(t, ctx, "li.app img.app-logo") {
		t.Fatalf("no application logo on %s", location(t, ctx))
	}
	if src := attr(t, ctx, "li.app img.app-logo", "src"); src != stk.URL+"/local/sample-logo.svg" {
		t.Errorf("logo src = %q", src)
	}
	if alt := attr(t, ctx, "li.app img.app-logo", "alt"); alt != "" {
		t.Errorf("logo alt = %q, want empty (the name is beside it)", alt)
	}
	eventually(t, "the logo loads", func() bool {
		return exists(t, ctx, "li.app img.app-logo") && evalBool(t, ctx, `(() => { const i = document.querySelector("li.app img.app-logo"); return i.complete && i.naturalWidth > 0; })()`)
	})
	// app.css gives every logo the same square (3rem), whatever its file's size.
	if sq := evalBool(t, ctx, `(() => { const r = document.querySelector("li.app img.app-logo").getBoundingClientRect(); return r.width === r.height && r.width >= 40 && r.width <= 64; })()`); !sq {
		t.Errorf("the logo is not the fixed square of app.css")
	}
	got := text(t, ctx, "li.app .app-text")
	if !strings.Contains(got, name) || !strings.Contains(got, org) {
		t.Errorf("application text = %q, want %q and %q", got, name, org)
	}
}

func evalBool(t *testing.T, ctx context.Context, js string) bool {
	t.Helper()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[bool](js))
	must(t, err)
	return v
}
