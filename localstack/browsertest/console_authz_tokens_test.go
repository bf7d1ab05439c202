package browsertest

import (
	"net/http"
	"strings"
	"testing"

	"github.com/edu-invite/invite/shared/domain"
)

// TestConsoleTokens (in a file named to run before TestConsoleJourney:
// after the journey's replay of dead letters, minidyn answers the
// TOKENS query on gsi2 with "invalid type NULL"; see the report) a super user creates an organization token (its
// value shown once, and it works on the API), sees it listed without the
// value, deletes it, and the value stops working.
func TestConsoleTokens(t *testing.T) {
	role := roleInOrg(t, "Tokens", "org-tokens")
	nameOrganizationAs(t, "org-tokens", "Tokens University") // chosen by name below
	super := makePerson(t, "Tia Tokens", "tia.tokens@example.org", role, "GUEST", func(u *domain.User) { u.SuperUser = true })
	ctx := consoleSignIn(t, super.person, "en")
	if got := open(t, ctx, stk.URL+"/console/tokens"); got != http.StatusOK {
		t.Fatalf("tokens page = %d at %s", got, location(t, ctx))
	}
	if got := click(t, ctx, "#create-token"); got != http.StatusBadRequest || text(t, ctx, "#description-error") != "Describe what the token is for." {
		t.Errorf("a token without description = %d", got)
	}
	setValue(t, ctx, "#description", "Nightly HR import")
	setValue(t, ctx, "#organization", "org-tokens")
	if got := click(t, ctx, "#create-token"); got != http.StatusCreated {
		t.Fatalf("create token = %d", got)
	}
	value := attr(t, ctx, "#new-token", "value")
	remember(value)
	checkAxe(t, ctx)
	// The value is shown once: "Copy token" puts it on the clipboard.
	grantClipboard(t, ctx)
	if got := text(t, ctx, ".new-token button.copy"); got != "Copy token" {
		t.Errorf("the token's copy button says %q", got)
	}
	copyAndCheck(t, ctx, ".new-token button.copy", value, "en")
	call := func() int {
		req, _ := http.NewRequest("GET", stk.URL+"/api/v1/roles", nil)
		req.Header.Set("X-API-TOKEN", value)
		resp, err := http.DefaultClient.Do(req)
		must(t, err)
		resp.Body.Close()
		return resp.StatusCode
	}
	if got := call(); got != http.StatusOK {
		t.Fatalf("the new token on the API = %d", got)
	}
	open(t, ctx, stk.URL+"/console/tokens")
	if exists(t, ctx, "#new-token") || strings.Contains(text(t, ctx, "main"), value) {
		t.Error("the token's value is shown again")
	}
	if got := text(t, ctx, "#tokens tbody"); !strings.Contains(got, "Nightly HR import") || !strings.Contains(got, "Tokens University") || strings.Contains(got, "org-tokens") {
		t.Errorf("token list = %q", got)
	}
	click(t, ctx, `#tokens button[aria-label="Delete Nightly HR import"]`)
	if got := text(t, ctx, ".flash"); got != "The token was deleted; it no longer works." {
		t.Errorf("flash = %q", got)
	}
	if got := call(); got != http.StatusUnauthorized {
		t.Errorf("the deleted token on the API = %d, want 401", got)
	}
}
