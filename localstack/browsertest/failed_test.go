package browsertest

import (
	"os"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestProvisioningFailureInPlainWords: when the application refuses the new
// account (here: the sample SP's credentials are wrong for a moment), the
// page that follows Accept says so in plain words and what to do, instead
// of waiting forever. It runs first of the browser
// tests (file order), while no other delivery is in flight.
func TestProvisioningFailureInPlainWords(t *testing.T) {
	role := newRole(t, "Refused", roleOptions{})
	link := invite(t, role, "leo@example.org", "en", "")
	ctx := newTab(t)
	open(t, ctx, link)
	click(t, ctx, "#signin")
	signInAtIdP(t, ctx, person{Name: "Leo", Email: "leo@example.org"})

	token := os.Getenv("SAMPLE_SP_TOKEN")
	os.Setenv("SAMPLE_SP_TOKEN", "a-token-the-sp-does-not-know")
	defer os.Setenv("SAMPLE_SP_TOKEN", token)
	click(t, ctx, "#accept")
	must(t, chromedp.Do(ctx, chromedp.WaitVisible(chromedp.CSS(`#status li[data-status="failed"]`))))
	got := text(t, ctx, `#status li[data-status="failed"] .status`)
	if !strings.HasPrefix(got, "Not ready: The application did not accept the service's credentials.") || !strings.Contains(got, "tell the person who invited you") {
		t.Errorf("failure text = %q", got)
	}
	checkAxe(t, ctx)
	darkMode(t, ctx, true)
	checkAxe(t, ctx)
}
