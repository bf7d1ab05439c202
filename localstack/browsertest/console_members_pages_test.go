package browsertest

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestConsoleRoleMembersPages: a role with more members than a page shows
// 25 of them by name and the count of all; "Next page" posts the position
// (no member's name in the address) and shows the rest, with a way back to
// the first page.
func TestConsoleRoleMembersPages(t *testing.T) {
	role := roleInOrg(t, "Members pages", "org-members-pages")
	manager := makePerson(t, "Mia Manager", "mia.pages@example.org", role, "MANAGER", nil)
	for i := range 26 {
		body := map[string]any{"roleIdentifiers": []int64{role}, "intendedAuthority": "GUEST", "sub": fmt.Sprintf("urn:collab:person:pages-%02d", i),
			"email": fmt.Sprintf("p%02d.pages@example.org", i), "name": fmt.Sprintf("Paged Person %02d", i)}
		if got := api(t, "POST", "/api/v1/user_roles/user_role_provisioning", body, nil); got != http.StatusCreated {
			t.Fatalf("provision member %d = %d", i, got)
		}
	}
	ctx := consoleSignIn(t, manager.person, "en")
	rows := func() int {
		t.Helper()
		n, err := chromedp.Run(ctx, chromedp.Evaluate[int](`document.querySelectorAll("#members tr[data-member]").length`))
		must(t, err)
		return n
	}
	if got := open(t, ctx, fmt.Sprintf("%s/console/roles/%d", stk.URL, role)); got != http.StatusOK {
		t.Fatalf("the role page = %d", got)
	}
	if heading := text(t, ctx, "#members-heading"); heading != "Members (27)" || rows() != 25 {
		t.Errorf("first page: %q, %d rows; want Members (27) and 25 rows", heading, rows())
	}
	if first := text(t, ctx, "#members tbody tr"); !strings.HasPrefix(first, "Mia Manager") {
		t.Errorf("the first member is %q, want Mia Manager (by name)", first)
	}
	if got := click(t, ctx, `nav.pager form button`); got != http.StatusOK {
		t.Fatalf("next page = %d", got)
	}
	if loc := location(t, ctx); strings.Contains(loc, "after") || strings.Contains(loc, "?") {
		t.Errorf("the next page's address carries its position: %s", loc)
	}
	if rows() != 2 || !strings.Contains(text(t, ctx, "#members"), "Paged Person 25") {
		t.Errorf("second page: %d rows: %s", rows(), text(t, ctx, "#members"))
	}
	if got := click(t, ctx, `nav.pager a[rel="first"]`); got != http.StatusOK || rows() != 25 {
		t.Errorf("back to the first page = %d, %d rows", got, rows())
	}
}
