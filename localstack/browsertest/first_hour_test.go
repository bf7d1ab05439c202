package browsertest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/edu-invite/invite/shared/domain"
	"github.com/edu-invite/invite/shared/i18n"
)

// The first hour of an inviter and an institution admin: refusals that
// say what to do, a refused form that keeps its input, invitations that
// name who invites and the organization, by name.

// namedOrganization is an organization the registry names (through an
// application of it): pages and e-mails show its name, never its GUID.
const namedOrganization = "org-harderwijk"

var organizationNames = map[string]string{"en": "University of Harderwijk", "nl": "Universiteit Harderwijk"}

// nameOrganization adds an application of namedOrganization to the
// registry, once; the registry names the organization from it.
func nameOrganization(t *testing.T) {
	t.Helper()
	var existing map[string]any
	if api(t, "GET", "/api/v1/manage/registry/applications/harderwijk-wiki", nil, &existing) == http.StatusOK {
		return
	}
	body := map[string]any{"manageId": "harderwijk-wiki", "manageType": "SAML20_SP", "name": "Harderwijk wiki",
		"organizationName": organizationNames["en"], "organizationNameNl": organizationNames["nl"],
		"organizationGUID": namedOrganization, "landingPage": "https://wiki.harderwijk.example.org", "provisionings": []string{}}
	if got := api(t, "POST", "/api/v1/manage/registry/applications", body, nil); got != http.StatusCreated && got != http.StatusOK {
		t.Fatalf("create the application of %s = %d", namedOrganization, got)
	}
}

// atBothWidths runs axe-core at 1280 and 375 px and, when name is not
// empty, saves both pictures (name.png, name-375.png).
func atBothWidths(t *testing.T, ctx context.Context, name string) {
	t.Helper()
	for _, width := range []int64{1280, 375} {
		must(t, chromedp.Do(ctx, chromedp.EmulateViewport(width, 800)))
		checkAxe(t, ctx)
		noSidewaysScroll(t, ctx, location(t, ctx), ".scroll")
	}
	must(t, chromedp.Do(ctx, chromedp.EmulateViewport(1024, 800)))
	if name != "" {
		screenshot(t, ctx, name+".png", 1280)
		screenshot(t, ctx, name+"-375.png", 375)
	}
}

// TestGuestOpeningTheConsole: a guest who opens /console is told, in their
// language, that they have no access to the console and where their own
// access is (403, not "the request did not come from this site").
func TestGuestOpeningTheConsole(t *testing.T) {
	role := roleInOrg(t, "Guests only", "org-first-hour")
	guest := makePerson(t, "Gus Guest", "gus.firsthour@example.org", role, "GUEST", nil)
	for _, lang := range []string{"en", "nl"} {
		t.Run(lang, func(t *testing.T) {
			ctx := consoleSignIn(t, guest.person, lang)
			if got := open(t, ctx, stk.URL+"/console?lang="+lang); got != http.StatusForbidden {
				t.Fatalf("GET /console as a guest = %d, want 403", got)
			}
			if !exists(t, ctx, `[data-state="noConsole"]`) {
				t.Fatalf("the guest sees %q", text(t, ctx, "main"))
			}
			if got, want := text(t, ctx, "h1"), i18n.T(lang, "state.noConsole.title"); got != want {
				t.Errorf("heading %q, want %q", got, want)
			}
			if main := text(t, ctx, "main"); strings.Contains(main, i18n.T(lang, "state.crossOrigin.body")) {
				t.Errorf("the guest is told the request came from another site: %s", main)
			}
			if got := attr(t, ctx, "main a[role=button]", "href"); got != "/" {
				t.Errorf("the way on leads to %q, want my access (/)", got)
			}
			atBothWidths(t, ctx, map[string]string{"en": "console-no-access", "nl": ""}[lang])
		})
	}
}

// TestRoleFormKeepsInputWithoutOrganization: a super user who saves a new
// role without an organization gets a message beside that field, in their
// language, and everything typed is still there; the organizations the
// registry names are offered by name.
func TestRoleFormKeepsInputWithoutOrganization(t *testing.T) {
	nameOrganization(t)
	role := roleInOrg(t, "Form keeper", "org-first-hour")
	super := makePerson(t, "Sue Super", "sue.firsthour@example.org", role, "GUEST", func(u *domain.User) { u.SuperUser = true })
	for _, lang := range []string{"en", "nl"} {
		t.Run(lang, func(t *testing.T) {
			ctx := consoleSignIn(t, super.person, lang)
			open(t, ctx, stk.URL+"/console/roles/new?lang="+lang)
			label, err := chromedp.Run(ctx, chromedp.Evaluate[string](
				`(document.querySelector('#organization option[value="`+namedOrganization+`"]') || {}).textContent || ""`))
			must(t, err)
			if label != organizationNames[lang] {
				t.Errorf("the organization list offers %s as %q, want %q", namedOrganization, label, organizationNames[lang])
			}
			name := "Kept role " + lang
			setValue(t, ctx, "#name", name)
			setValue(t, ctx, "#description", "Typed before the refusal")
			must(t, chromedp.Do(ctx, chromedp.Click(chromedp.CSS("#app-sample-app"), chromedp.NodeVisible)))
			if got := click(t, ctx, "#save-role"); got != http.StatusBadRequest {
				t.Fatalf("saving without an organization = %d, want 400", got)
			}
			if got, want := text(t, ctx, "#organization-error"), i18n.T(lang, "console.roleform.err.organization"); got != want {
				t.Errorf("beside the field: %q, want %q", got, want)
			}
			if got := attr(t, ctx, "#organization", "aria-invalid"); got != "true" {
				t.Errorf("the organization field is not marked invalid (%q)", got)
			}
			kept, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`[document.getElementById("name").value, document.getElementById("description").value,
				String(document.getElementById("app-sample-app").checked)]`))
			must(t, err)
			if len(kept) != 3 || kept[0] != name || kept[1] != "Typed before the refusal" || kept[2] != "true" {
				t.Errorf("the typed input was lost: %q", kept)
			}
			atBothWidths(t, ctx, map[string]string{"en": "console-role-form-organization", "nl": ""}[lang])
			setValue(t, ctx, "#organization", namedOrganization)
			if got := click(t, ctx, "#save-role"); got != http.StatusOK || !strings.Contains(location(t, ctx), "done=created") {
				t.Errorf("saving with the organization = %d at %s: %s", got, location(t, ctx), text(t, ctx, "main"))
			}
		})
	}
}

// TestInstitutionAdminInvitationNamesTheOrganization: the invitation of an
// institution admin names the organization by name in the e-mail and on
// the page, in the invitation's language; after Accept the person is told
// what they became and goes on to the console.
func TestInstitutionAdminInvitationNamesTheOrganization(t *testing.T) {
	nameOrganization(t)
	for _, lang := range []string{"en", "nl"} {
		t.Run(lang, func(t *testing.T) {
			email := "ada." + lang + ".firsthour@example.org"
			body := map[string]any{"intendedAuthority": "INSTITUTION_ADMIN", "language": lang, "invites": []string{email},
				"organizationGUID": namedOrganization, "expiryDate": clock.Now().Add(14 * 24 * time.Hour).Unix()}
			if got := api(t, "POST", "/api/external/v1/invitations", body, nil); got != http.StatusCreated {
				t.Fatalf("invite an institution admin = %d", got)
			}
			link := mailLink(t, email)
			mail := mailTo(t, email)
			if !strings.Contains(mail, organizationNames[lang]) || strings.Contains(mail, namedOrganization) {
				t.Errorf("the e-mail does not name the organization by name:\n%s", mail)
			}
			ctx := newTab(t)
			open(t, ctx, link)
			if got := text(t, ctx, "#organization h2"); got != organizationNames[lang] {
				t.Errorf("the page names the organization %q, want %q", got, organizationNames[lang])
			}
			if main := text(t, ctx, "main"); strings.Contains(main, namedOrganization) || !strings.Contains(main, organizationNames[lang]+" ") {
				t.Errorf("the page shows the GUID, or does not say who invites: %s", main)
			}
			atBothWidths(t, ctx, map[string]string{"en": "admin-invitation", "nl": ""}[lang])
			click(t, ctx, "#signin")
			signInAtIdP(t, ctx, person{Name: "Ada Admin", Email: email})
			click(t, ctx, "#accept")
			if got, want := text(t, ctx, "#admin-of"), i18n.T(lang, "welcome.admin", organizationNames[lang]); got != want {
				t.Errorf("after Accept: %q, want %q", got, want)
			}
			atBothWidths(t, ctx, map[string]string{"en": "admin-welcome", "nl": ""}[lang])
			if got := click(t, ctx, "#open-console"); got != http.StatusOK || !strings.Contains(location(t, ctx), "/console") {
				t.Fatalf("the way to the console = %d at %s", got, location(t, ctx))
			}
			if !exists(t, ctx, `a[href="/console/admins"]`) {
				t.Errorf("the new institution admin's console has no administrators page: %s", text(t, ctx, "main"))
			}
		})
	}
}

// TestTokenInvitationNamesWhoInvites: an invitation sent with an
// organization's API token names the token's description as who invites,
// in the e-mail and on the page (never its id, never "you have been
// invited" alone).
func TestTokenInvitationNamesWhoInvites(t *testing.T) {
	nameOrganization(t)
	role := roleInOrg(t, "Token invited", namedOrganization)
	var generated struct {
		Token string `json:"token"`
	}
	if got := api(t, "GET", "/api/v1/tokens/generate-token", nil, &generated); got != http.StatusOK || generated.Token == "" {
		t.Fatalf("generate a token = %d", got)
	}
	remember(generated.Token)
	if got := api(t, "POST", "/api/v1/tokens", map[string]any{"description": "Research office", "organizationGUID": namedOrganization}, nil); got != http.StatusOK && got != http.StatusCreated {
		t.Fatalf("save the token = %d", got)
	}
	for _, lang := range []string{"en", "nl"} {
		t.Run(lang, func(t *testing.T) {
			email := "tim." + lang + ".firsthour@example.org"
			body := map[string]any{"intendedAuthority": "GUEST", "language": lang, "invites": []string{email},
				"roleIdentifiers": []int64{role}, "expiryDate": clock.Now().Add(14 * 24 * time.Hour).Unix()}
			if got := apiWithToken(t, generated.Token, "POST", "/api/external/v1/invitations", body); got != http.StatusCreated {
				t.Fatalf("invite with the organization's token = %d", got)
			}
			link := mailLink(t, email)
			if mail := mailTo(t, email); !strings.Contains(mail, "Research office") || strings.Contains(mail, "API token") {
				t.Errorf("the e-mail does not name the token's description as who invites:\n%s", mail)
			}
			ctx := newTab(t)
			open(t, ctx, link)
			intro := text(t, ctx, "main > p")
			want := i18n.T(lang, "inv.invitedBy", "Research office", i18n.Authority(lang, "GUEST"))
			if intro != want {
				t.Errorf("the page says %q, want %q", intro, want)
			}
			atBothWidths(t, ctx, map[string]string{"en": "token-invitation", "nl": ""}[lang])
		})
	}
}

// apiWithToken calls the JSON API with another API token than the
// bootstrap one.
func apiWithToken(t *testing.T, token, method, path string, body any) int {
	t.Helper()
	b, _ := json.Marshal(body)
	req, _ := http.NewRequest(method, stk.URL+path, bytes.NewReader(b))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-API-TOKEN", token)
	resp, err := http.DefaultClient.Do(req)
	must(t, err)
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	if resp.StatusCode >= 300 {
		t.Logf("%s %s = %d %s", method, path, resp.StatusCode, raw)
	}
	return resp.StatusCode
}

// TestRefusedMemberShowsFailedWithReason: an application whose connection
// has a wrong token refuses the role's group and the new member (401). The
// role page shows the group and the member failed, with the reason in
// plain words and what to do (a super user also the way to the dead
// letters); so do the person's page and the guest's own page, never
// "being set up" forever.
func TestRefusedMemberShowsFailedWithReason(t *testing.T) {
	conn := map[string]any{"id": "refusing-sp", "name": "Refusing SP", "baseUrl": stk.URL + "/scim-sp/v1", "version": "v1",
		"membership": "PATCH", "userIdentifier": "eduPersonPrincipalName", "auth": map[string]any{"method": "bearer"},
		"secret": "a-token-the-sample-sp-does-not-know"}
	if got := api(t, "POST", "/api/v1/manage/registry/connections", conn, nil); got != http.StatusCreated && got != http.StatusConflict {
		t.Fatalf("create the refusing connection = %d", got)
	}
	app := map[string]any{"manageId": "refusing-app", "manageType": "SAML20_SP", "name": "Refusing app",
		"landingPage": "https://refusing.example.org", "provisionings": []string{"refusing-sp"}}
	if got := api(t, "POST", "/api/v1/manage/registry/applications", app, nil); got != http.StatusCreated && got != http.StatusConflict {
		t.Fatalf("create the refusing application = %d", got)
	}
	roleSeq.Lock()
	roleSeq.n++
	name := fmt.Sprintf("Refused members %d", roleSeq.n)
	roleSeq.Unlock()
	var role struct {
		ID int64 `json:"id"`
	}
	body := map[string]any{"name": name, "organizationGUID": "org-first-hour", "defaultExpiryDays": 365,
		"applicationUsages": []any{map[string]any{"landingPage": "https://refusing.example.org",
			"application": map[string]any{"manageId": "refusing-app", "manageType": "SAML20_SP"}}}}
	if got := api(t, "POST", "/api/v1/roles", body, &role); got != http.StatusCreated {
		t.Fatalf("create the role = %d", got)
	}
	member := makePerson(t, "Rex Refused", "rex.firsthour@example.org", role.ID, "GUEST", nil)
	super := makePerson(t, "Sid Super", "sid.firsthour@example.org", role.ID, "INVITER", func(u *domain.User) { u.SuperUser = true })
	manager := makePerson(t, "Meg Manager", "meg.firsthour@example.org", role.ID, "MANAGER", nil)

	for _, lang := range []string{"en", "nl"} {
		t.Run(lang, func(t *testing.T) {
			reason := i18n.T(lang, "failure.credentials")
			for _, who := range []consolePerson{super, manager} {
				ctx := consoleSignIn(t, who.person, lang)
				rolePage := fmt.Sprintf("%s/console/roles/%d?lang=%s", stk.URL, role.ID, lang)
				var group, row string
				deadline := time.Now().Add(time.Minute)
				for {
					open(t, ctx, rolePage)
					group = text(t, ctx, "main")
					if exists(t, ctx, `#group li[data-status="failed"]`) && exists(t, ctx, `tr li[data-status="failed"]`) || time.Now().After(deadline) {
						break
					}
					time.Sleep(time.Second)
				}
				if !exists(t, ctx, `#group li[data-status="failed"]`) {
					t.Fatalf("the role page shows no failed group at the refusing application: %s", group)
				}
				if !exists(t, ctx, `tr li[data-status="failed"]`) {
					t.Fatalf("the role page shows the refused member otherwise: %s", group)
				}
				row = text(t, ctx, `tr li[data-status="failed"]`)
				if !strings.Contains(row, reason) || strings.Contains(row, i18n.T(lang, "status.pending")) {
					t.Errorf("the member's state at the refusing application: %q, want the reason %q", row, reason)
				}
				deadLetters := exists(t, ctx, `tr li[data-status="failed"] a[href^="/console/operations"]`)
				if deadLetters != (who.UserID == super.UserID) {
					t.Errorf("the way to the dead letters shown to %s: %v", who.Name, deadLetters)
				}
				if who.UserID == super.UserID {
					atBothWidths(t, ctx, map[string]string{"en": "console-role-refused", "nl": ""}[lang])
					open(t, ctx, fmt.Sprintf("%s/console/people/%d?lang=%s", stk.URL, member.UserID, lang))
					if got := text(t, ctx, `li[data-status="failed"]`); !strings.Contains(got, reason) {
						t.Errorf("the person page's state at the refusing application: %q", got)
					}
					atBothWidths(t, ctx, "")
				}
			}
			ctx := newTab(t)
			open(t, ctx, stk.URL+"/?lang="+lang)
			click(t, ctx, `main a[role="button"]`)
			signInAtIdP(t, ctx, member.person)
			open(t, ctx, stk.URL+"/?lang="+lang)
			got := text(t, ctx, `li[data-status="failed"] .status`)
			if got != i18n.T(lang, "status.failed", reason) {
				t.Errorf("the guest's own page: %q, want the reason %q", got, reason)
			}
			atBothWidths(t, ctx, map[string]string{"en": "my-access-refused", "nl": ""}[lang])
		})
	}
}
