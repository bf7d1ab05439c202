package browsertest

import (
	"net/http"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/edu-invite/invite/shared/domain"
	"github.com/edu-invite/invite/shared/i18n"
)

// nameOrganizationAs names an organization through the API (a super
// user's token), once: 201, or 409 when an earlier run named it.
func nameOrganizationAs(t *testing.T, guid, name string) {
	t.Helper()
	got := api(t, "POST", "/api/v1/manage/organizations", map[string]any{"organizationGUID": guid, "name": name}, nil)
	if got != http.StatusCreated && got != http.StatusConflict {
		t.Fatalf("name organization %s = %d", guid, got)
	}
}

// TestSuperUserNamesOrganizations: in both languages a super user names an
// organization on the organizations page (a missing name is said beside
// the field, with what was typed kept), sees it listed, and then finds it
// by name in the list of the "New role" form; both pages pass axe-core at
// full width and narrow.
func TestSuperUserNamesOrganizations(t *testing.T) {
	role := roleInOrg(t, "Organization namer", "org-naming")
	super := makePerson(t, "Nora Namer", "nora.namer@example.org", role, "GUEST", func(u *domain.User) { u.SuperUser = true })
	for _, lang := range []string{"en", "nl"} {
		t.Run(lang, func(t *testing.T) {
			guid := "org-named-" + lang
			name := map[string]string{"en": "Named College", "nl": "Benoemde Hogeschool"}[lang]
			ctx := consoleSignIn(t, super.person, lang)
			if got := open(t, ctx, stk.URL+"/console/organizations?lang="+lang); got != http.StatusOK {
				t.Fatalf("organizations page = %d", got)
			}
			setValue(t, ctx, "#guid", guid)
			if got := click(t, ctx, "#create-organization"); got != http.StatusBadRequest {
				t.Fatalf("saving without a name = %d, want 400", got)
			}
			if got, want := text(t, ctx, "#name-error"), i18n.T(lang, "console.organizations.err.name"); got != want {
				t.Errorf("beside the name: %q, want %q", got, want)
			}
			if got := attr(t, ctx, "#guid", "value"); got != guid {
				t.Errorf("the typed GUID was lost: %q", got)
			}
			atBothWidths(t, ctx, map[string]string{"en": "console-organizations-refused", "nl": ""}[lang])
			setValue(t, ctx, "#name", name)
			got := click(t, ctx, "#create-organization")
			if got == http.StatusConflict { // named by an earlier run on this stack
				open(t, ctx, stk.URL+"/console/organizations?lang="+lang)
			} else if got != http.StatusOK || !strings.Contains(location(t, ctx), "done=organizationSaved") {
				t.Fatalf("saving the organization = %d at %s", got, location(t, ctx))
			}
			if row := text(t, ctx, `tr[data-organization="`+guid+`"]`); !strings.Contains(row, name) {
				t.Errorf("the list shows %q for %s", row, guid)
			}
			atBothWidths(t, ctx, map[string]string{"en": "console-organizations", "nl": ""}[lang])
			open(t, ctx, stk.URL+"/console/roles/new?lang="+lang)
			label, err := chromedp.Run(ctx, chromedp.Evaluate[string](
				`(document.querySelector('#organization option[value="`+guid+`"]') || {}).textContent || ""`))
			must(t, err)
			if label != name {
				t.Errorf("the New role form offers %s as %q, want %q", guid, label, name)
			}
		})
	}
}
