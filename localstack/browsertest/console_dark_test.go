package browsertest

import (
	"fmt"
	"net/http"
	"testing"

	"github.com/edu-invite/invite/shared/domain"
)

// TestConsoleDarkMode: Pico follows the system's dark mode, so the
// console's own colours must too: the role page (red Remove and Withdraw
// buttons, a link to copy) and the invite form sent back with errors pass
// axe-core's contrast rules in dark mode, en and nl.
func TestConsoleDarkMode(t *testing.T) {
	role := roleInOrg(t, "Dark", "org-dark")
	makePerson(t, "Dan Dark", "dan.dark@example.org", role, "GUEST", nil)
	super := makePerson(t, "Sue Dark", "sue.dark@example.org", role, "GUEST", func(u *domain.User) { u.SuperUser = true })
	body := map[string]any{"intendedAuthority": "GUEST", "invites": []string{"open.dark@example.org"}, "roleIdentifiers": []int64{role},
		"expiryDate": clock.Now().Unix() + 86400}
	if got := api(t, "POST", "/api/external/v1/invitations", body, nil); got != http.StatusCreated {
		t.Fatalf("invite = %d", got)
	}
	for _, lang := range []string{"en", "nl"} {
		t.Run(lang, func(t *testing.T) {
			ctx := consoleSignIn(t, super.person, lang)
			darkMode(t, ctx, true)
			if got := open(t, ctx, fmt.Sprintf("%s/console/roles/%d", stk.URL, role)); got != http.StatusOK {
				t.Fatalf("role page = %d", got)
			}
			if !exists(t, ctx, `form[action$="/remove"] button`) || !exists(t, ctx, "button.copy") {
				t.Fatal("the role page offers no Remove or Copy link to check")
			}
			checkAxe(t, ctx)
			shootBothWidths(t, ctx, "dark-role", lang)
			open(t, ctx, fmt.Sprintf("%s/console/invite?role=%d", stk.URL, role))
			setValue(t, ctx, "#recipients", "not-an-address")
			if got := click(t, ctx, "#send"); got != http.StatusBadRequest {
				t.Fatalf("invalid invite = %d", got)
			}
			if !exists(t, ctx, "#recipient-errors li") {
				t.Fatal("the form shows no recipient error to check")
			}
			checkAxe(t, ctx)
			shootBothWidths(t, ctx, "dark-invite", lang)
		})
	}
}
