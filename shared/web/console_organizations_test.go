package web

import (
	"context"
	"html"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/edu-invite/invite/shared/auth"
	"github.com/edu-invite/invite/shared/domain"
	"github.com/edu-invite/invite/shared/dynamo"
	"github.com/edu-invite/invite/shared/i18n"
	"github.com/edu-invite/invite/shared/service"
	"github.com/edu-invite/invite/shared/testkit"
)

// serveConsole sends one request through the pages' route table as pr,
// with the visit a session would have made.
func serveConsole(p *Pages, pr *auth.Principal, lang, method, target string, form url.Values) (int, string) {
	mux := http.NewServeMux()
	for _, rt := range p.routes() {
		mux.Handle(rt.pattern, rt.handler)
	}
	var r *http.Request
	if form != nil {
		r = httptest.NewRequest(method, target, strings.NewReader(form.Encode()))
		r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	} else {
		r = httptest.NewRequest(method, target, nil)
	}
	r = r.WithContext(context.WithValue(r.Context(), visitKey{}, &visit{principal: pr, acceptLanguage: lang}))
	w := httptest.NewRecorder()
	mux.ServeHTTP(w, r)
	return w.Code, html.UnescapeString(w.Body.String())
}

// optionsOf lists a select's options as value=label, marking the selected.
func optionsOf(body, selectID string) []string {
	start := strings.Index(body, `<select id="`+selectID+`"`)
	if start < 0 {
		return nil
	}
	end := strings.Index(body[start:], "</select>")
	var out []string
	for _, m := range regexp.MustCompile(`<option value="([^"]*)"( selected)?>([^<]*)</option>`).FindAllStringSubmatch(body[start:start+end], -1) {
		out = append(out, m[1]+"="+m[3]+strings.ReplaceAll(m[2], " selected", "*"))
	}
	return out
}

// TestSuperUsersNameOrganizations: the organizations page lists every
// organization with its names; a new one without a name is refused beside
// the name field with what was typed kept; saved, it is listed, and a
// rename shows at once, in the page's language.
func TestSuperUsersNameOrganizations(t *testing.T) {
	f := newConsoleFixture(t, 1, 2)
	for _, lang := range []string{"en", "nl"} {
		code, body := serveConsole(f.pages, f.super, lang, "POST", "/console/organizations", url.Values{"guid": {"org-" + lang}, "nameNl": {"Alleen Nederlands"}})
		if code != http.StatusBadRequest || !strings.Contains(body, `id="name-error">`+i18n.T(lang, "console.organizations.err.name")) ||
			!strings.Contains(body, `value="org-`+lang+`"`) || !strings.Contains(body, `value="Alleen Nederlands"`) {
			t.Errorf("%s: no name: %d, message or typed input missing:\n%s", lang, code, body)
		}
	}
	if orgs := f.pages.cfg.Service.OrganizationChoices(context.Background()); len(orgs) != 0 {
		t.Fatalf("a refused form named %+v", orgs)
	}
	code, _ := serveConsole(f.pages, f.super, "en", "POST", "/console/organizations", url.Values{"guid": {"org-uni"}, "name": {"Example University"}, "nameNl": {"Voorbeelduniversiteit"}})
	if code != http.StatusSeeOther {
		t.Fatalf("create: %d", code)
	}
	code, body := serveConsole(f.pages, f.super, "en", "POST", "/console/organizations", url.Values{"guid": {"org-uni"}, "name": {"Impostor"}})
	if code != http.StatusConflict || !strings.Contains(body, `id="guid-error"`) || !strings.Contains(body, `value="Impostor"`) {
		t.Errorf("taken GUID: %d:\n%s", code, body)
	}
	code, _ = serveConsole(f.pages, f.super, "en", "POST", "/console/organizations/org-uni/edit", url.Values{"name": {"Example College"}, "nameNl": {"Voorbeeldhogeschool"}})
	if code != http.StatusSeeOther {
		t.Fatalf("rename: %d", code)
	}
	for lang, want := range map[string][]string{"en": {"Example College", "Voorbeeldhogeschool", "org-uni", "a super user"},
		"nl": {"Example College", "Voorbeeldhogeschool", "org-uni", "een superuser"}} {
		code, body := serveConsole(f.pages, f.super, lang, "GET", "/console/organizations", nil)
		for _, w := range want {
			if code != 200 || !strings.Contains(body, w) {
				t.Errorf("%s list lacks %q (%d)", lang, w, code)
			}
		}
		if strings.Contains(body, "Example University") {
			t.Errorf("%s list shows the former name", lang)
		}
	}
	if code, _ := serveConsole(f.pages, f.super, "en", "GET", "/console/organizations/org-nobody/edit", nil); code != http.StatusNotFound {
		t.Errorf("rename form of an unknown organization: %d", code)
	}
}

// TestOrganizationsAreChosenByName: a super user's new role, token and
// administrators page offer the organizations by name in the page's
// language; a role without one is refused beside the field, keeping what
// was typed; a GUID nobody named stays chosen, said as unnamed.
func TestOrganizationsAreChosenByName(t *testing.T) {
	f := newConsoleFixture(t, 1, 2)
	ctx := context.Background()
	svc := f.pages.cfg.Service
	svc.Queue = &testkit.RecordingQueue{} // the new role's group goes to the sample SP
	for _, in := range []service.OrganizationInput{{GUID: "org-b", Name: "Beta College", NameNL: "Hogeschool Beta"}, {GUID: "org-a", Name: "Alpha University"}} {
		if _, err := svc.CreateOrganization(ctx, f.super, in); err != nil {
			t.Fatal(err)
		}
	}
	for lang, want := range map[string]string{
		"en": "=" + i18n.T("en", "console.organizations.choose") + "|org-a=Alpha University|org-b=Beta College",
		"nl": "=" + i18n.T("nl", "console.organizations.choose") + "|org-a=Alpha University|org-b=Hogeschool Beta",
	} {
		for _, page := range []struct{ path, selectID string }{{"/console/roles/new", "organization"}, {"/console/tokens", "organization"}, {"/console/admins", "org"}} {
			code, body := serveConsole(f.pages, f.super, lang, "GET", page.path, nil)
			if got := strings.Join(optionsOf(body, page.selectID), "|"); code != 200 || got != want {
				t.Errorf("%s %s: %d, options %q, want %q", lang, page.path, code, got, want)
			}
		}
	}
	// The registry's forms: a super user chooses the institution by name.
	svc.RegistryAdmin = &service.RegistryAdmin{Store: svc.Store.(*dynamo.Store)}
	for lang, want := range map[string]string{
		"en": "=" + i18n.T("en", "console.reg.noOrganization") + "*|org-a=Alpha University|org-b=Beta College",
		"nl": "=" + i18n.T("nl", "console.reg.noOrganization") + "*|org-a=Alpha University|org-b=Hogeschool Beta",
	} {
		for _, path := range []string{"/console/applications/new", "/console/connections/new"} {
			code, body := serveConsole(f.pages, f.super, lang, "GET", path, nil)
			if got := strings.Join(optionsOf(body, "organizationGUID"), "|"); code != 200 || got != want {
				t.Errorf("%s %s: %d, options %q, want %q", lang, path, code, got, want)
			}
		}
	}
	roleForm := url.Values{"name": {"Lab assistants"}, "description": {"Typed before the refusal"}, "days": {"30"}, "app0": {"on"}}
	code, body := serveConsole(f.pages, f.super, "nl", "POST", "/console/roles/new", roleForm)
	if code != http.StatusBadRequest || !strings.Contains(body, `id="organization-error">`+i18n.T("nl", "console.roleform.err.organization")) ||
		!strings.Contains(body, `aria-describedby="organization-help organization-error"`) ||
		!strings.Contains(body, `value="Lab assistants"`) || !strings.Contains(body, "Typed before the refusal") {
		t.Errorf("role without an organization: %d:\n%s", code, body)
	}
	roleForm.Set("organization", "org-unnamed")
	roleForm.Del("app0") // refused for another reason: the unnamed GUID stays chosen
	_, body = serveConsole(f.pages, f.super, "en", "POST", "/console/roles/new", roleForm)
	if got := optionsOf(body, "organization"); len(got) != 4 || got[3] != "org-unnamed="+i18n.T("en", "console.organizations.unnamed", "org-unnamed")+"*" {
		t.Errorf("an unnamed organization's options: %q", got)
	}
	roleForm.Set("organization", "org-b")
	roleForm.Set("app0", "on")
	if code, body := serveConsole(f.pages, f.super, "en", "POST", "/console/roles/new", roleForm); code != http.StatusSeeOther {
		t.Fatalf("role in org-b: %d:\n%s", code, body)
	}
	page, _, err := svc.ListRoles(ctx, f.super, domain.PageRequest{Query: "Lab assistants", Size: 5}, false)
	if err != nil || len(page.Items) != 1 || page.Items[0].OrganizationGUID != "org-b" {
		t.Fatalf("created role: %+v, %v", page.Items, err)
	}
	// The role's page names its organization.
	id := page.Items[0].ID
	_, body = serveConsole(f.pages, f.super, "nl", "GET", "/console/roles/"+itoa(id), nil)
	if !strings.Contains(body, "Hogeschool Beta") || strings.Contains(body, ">org-b<") {
		t.Errorf("role page does not name the organization")
	}
}

// TestConsoleHomeDescribesEverySection: a super user's console home says
// in words what each section is for, in both languages (a section added
// without its words shows a message key).
func TestConsoleHomeDescribesEverySection(t *testing.T) {
	f := newConsoleFixture(t, 1, 1)
	for _, lang := range i18n.Languages {
		code, body := serveConsole(f.pages, f.super, lang, "GET", "/console", nil)
		if code != http.StatusOK || strings.Contains(body, "console.") || !strings.Contains(body, i18n.T(lang, "console.home.about.organizations")) {
			t.Errorf("%s: %d, a message key or no words for Organizations:\n%s", lang, code, body)
		}
	}
}
