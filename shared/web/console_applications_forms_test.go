package web

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/edu-invite/invite/shared/auth"
	"github.com/edu-invite/invite/shared/config"
	"github.com/edu-invite/invite/shared/domain"
	"github.com/edu-invite/invite/shared/dynamo"
	"github.com/edu-invite/invite/shared/scimprobe"
	"github.com/edu-invite/invite/shared/service"
	"github.com/edu-invite/invite/shared/testkit"
)

// registryFixture is the console over a table-backed registry: the sample
// application (used by the seeded role) and its connection belong to
// org-a, "b-app" and "b-sp" to org-b; credentials go to a vault in memory.
type registryFixture struct {
	*consoleFixture
	store *dynamo.Store
	vault *testkit.MemoryVault
	// people: the kinds of person the tests try every form with.
	adminA, adminB, manager, guest *auth.Principal
}

func newRegistryFixture(t *testing.T) *registryFixture {
	t.Helper()
	f := newConsoleFixture(t, 1, 1)
	svc := f.pages.cfg.Service
	store := svc.Store.(*dynamo.Store)
	ctx := context.Background()
	vault := testkit.NewMemoryVault()
	aRef, _ := vault.Store(ctx, "sample-sp", "token", "stored-token-a")
	bRef, _ := vault.Store(ctx, "b-sp", "token", "stored-token-b")
	for _, c := range []config.ProvisioningDoc{
		{ID: "sample-sp", Name: "Sample SCIM SP", BaseURL: "https://sp.example.org/scim", Membership: "PATCH", OrganizationGUID: "org-a",
			Auth: config.AuthDoc{Method: "bearer", Token: aRef}},
		{ID: "b-sp", Name: "B SCIM SP", BaseURL: "https://b.example.org/scim", OrganizationGUID: "org-b", Auth: config.AuthDoc{Method: "bearer", Token: bRef}},
	} {
		if err := store.SaveConnection(ctx, c, true, config.Change{Kind: config.KindConnection, ID: c.ID, Action: config.ActionImport, By: "test", At: time.Now()}); err != nil {
			t.Fatal(err)
		}
	}
	for _, a := range []config.ApplicationDoc{
		{ManageID: "sample-app", ManageType: "SAML20_SP", Name: "Sample application", LandingPage: "https://sample.example.org", OrganizationGUID: "org-a", Provisionings: []string{"sample-sp"}},
		{ManageID: "b-app", ManageType: "OIDC10_RP", Name: "B application", LandingPage: "https://b.example.org", OrganizationGUID: "org-b", Provisionings: []string{"b-sp"}},
	} {
		if _, err := store.SaveApplication(ctx, a, true, config.Change{Kind: config.KindApplication, ID: a.ManageID, Action: config.ActionImport, By: "test", At: time.Now()}); err != nil {
			t.Fatal(err)
		}
	}
	live := config.NewLive(store, nil)
	if err := live.Load(ctx); err != nil {
		t.Fatal(err)
	}
	svc.Registry = live
	svc.RegistryAdmin = &service.RegistryAdmin{Store: store, Vault: vault, Secrets: vault, Prober: &scimprobe.Prober{Timeout: 2 * time.Second, Policy: testkit.LoopbackPolicy()},
		Invalidate: live.Invalidate, Outbound: testkit.LoopbackPolicy()}
	admin := func(name, org string) *auth.Principal {
		return &auth.Principal{Kind: auth.KindPerson, Name: name, OrganizationGUID: org, Person: &auth.Person{Name: name},
			User: &domain.User{InstitutionAdmin: true, OrganizationGUID: org}}
	}
	return &registryFixture{consoleFixture: f, store: store, vault: vault, adminA: admin("admin-a", "org-a"), adminB: admin("admin-b", "org-b"),
		manager: &auth.Principal{Kind: auth.KindPerson, Name: "manager", Person: &auth.Person{Name: "Manager"}, User: &domain.User{},
			Memberships: map[int64]domain.Authority{f.roleID: domain.Manager}},
		guest: &auth.Principal{Kind: auth.KindPerson, Name: "guest", Person: &auth.Person{Name: "Guest"}, User: &domain.User{}}}
}

// serve sends one request to the page mux as pr, as the session would.
func (f *registryFixture) serve(t *testing.T, pr *auth.Principal, lang, method, target string, form url.Values) (int, string, http.Header) {
	t.Helper()
	var r *http.Request
	if form != nil {
		r = httptest.NewRequest(method, target, strings.NewReader(form.Encode()))
		r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	} else {
		r = httptest.NewRequest(method, target, nil)
	}
	mux := http.NewServeMux()
	for _, rt := range f.pages.routes() {
		mux.Handle(rt.pattern, rt.handler)
	}
	r = r.WithContext(context.WithValue(r.Context(), visitKey{}, &visit{principal: pr, acceptLanguage: lang}))
	w := httptest.NewRecorder()
	mux.ServeHTTP(w, r)
	body := w.Body.String()
	// No page ever shows a stored credential or its reference.
	for _, s := range f.vault.ReferencesAndSecrets() {
		if strings.Contains(body, s) {
			t.Errorf("%s %s shows a secret or its reference: %q", method, target, s)
		}
	}
	if strings.Contains(body, "test-vault/") {
		t.Errorf("%s %s shows a vault reference", method, target)
	}
	return w.Code, body, w.Header()
}

func (f *registryFixture) registry(t *testing.T) config.Document {
	t.Helper()
	doc, err := f.store.LoadRegistry(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return doc
}

func appForm(manageID, name string) url.Values {
	return url.Values{"manageId": {manageID}, "manageType": {"OIDC10_RP"}, "name": {name}, "nameNl": {name + " NL"},
		"organizationName": {"Org"}, "organizationNameNl": {"Org NL"}, "logoUrl": {"https://logo.example.org/l.png"},
		"landingPage": {"https://new.example.org"}, "organizationGUID": {"org-a"}}
}

func connForm(id, secret string) url.Values {
	return url.Values{"id": {id}, "name": {"New SP " + id}, "baseUrl": {"https://new.example.org/scim"}, "version": {"v2"},
		"method": {"basic"}, "username": {"invite"}, "secret": {secret}, "membership": {"PUT"}, "userIdentifier": {"email"},
		"ratePerSecond": {"5"}, "timeoutSeconds": {"10"}, "maxPatchMembers": {"50"}, "organizationGUID": {"org-a"}}
}

// TestConsoleRegistryFormsByPerson tries every registry form as each kind
// of person: the super user and institution admin A may act on org-a's
// items; a manager and a guest are refused (403) and nothing changes;
// admin B is refused org-a's items (404, as the API answers: another
// institution's item is not shown to exist) and changes nothing.
func TestConsoleRegistryFormsByPerson(t *testing.T) {
	type try struct {
		method, target string
		form           url.Values
	}
	tries := []try{
		{"GET", "/console/applications", nil},
		{"GET", "/console/applications/new", nil},
		{"POST", "/console/applications/new", appForm("x-app", "X")},
		{"GET", "/console/applications/sample-app/edit", nil},
		{"POST", "/console/applications/sample-app/edit", appForm("sample-app", "Renamed")},
		{"GET", "/console/applications/sample-app/delete", nil},
		{"GET", "/console/connections/new", nil},
		{"POST", "/console/connections/new", connForm("x-sp", "new-secret-value")},
		{"GET", "/console/connections/sample-sp", nil},
		{"GET", "/console/connections/sample-sp/edit", nil},
		{"POST", "/console/connections/sample-sp/edit", connForm("sample-sp", "rotated-secret-value")},
		{"GET", "/console/connections/sample-sp/delete", nil},
	}
	f := newRegistryFixture(t)
	for _, c := range []struct {
		who     string
		pr      *auth.Principal
		allowed bool
	}{{"guest", f.guest, false}, {"manager", f.manager, false}, {"super user", f.super, true}} {
		before := f.registry(t)
		for _, tr := range tries {
			code, body, _ := f.serve(t, c.pr, "en", tr.method, tr.target, tr.form)
			switch {
			case c.allowed && tr.method == "POST" && code != http.StatusSeeOther:
				t.Errorf("%s %s %s: status %d: %s", c.who, tr.method, tr.target, code, body)
			case c.allowed && tr.method == "GET" && code != http.StatusOK:
				t.Errorf("%s %s %s: status %d", c.who, tr.method, tr.target, code)
			case !c.allowed && tr.target == "/console/applications" || !c.allowed && strings.HasSuffix(tr.target, "/new"):
				if code != http.StatusForbidden {
					t.Errorf("%s %s %s: status %d, want 403", c.who, tr.method, tr.target, code)
				}
			case !c.allowed && code != http.StatusForbidden:
				t.Errorf("%s %s %s: status %d, want 403", c.who, tr.method, tr.target, code)
			}
			if !c.allowed && strings.Contains(body, "Sample SCIM SP") {
				t.Errorf("%s %s %s shows org-a's connection", c.who, tr.method, tr.target)
			}
		}
		after := f.registry(t)
		if !c.allowed && (len(after.Applications) != len(before.Applications) || len(after.Provisionings) != len(before.Provisionings) ||
			after.Applications[1].Name != before.Applications[1].Name) {
			t.Errorf("%s changed the registry: %+v", c.who, after)
		}
	}
	before := f.registry(t)
	for _, tr := range tries {
		if !strings.Contains(tr.target, "sample-") {
			continue
		}
		if code, body, _ := f.serve(t, f.adminB, "en", tr.method, tr.target, tr.form); code != http.StatusNotFound || strings.Contains(body, "Sample SCIM SP") {
			t.Errorf("admin B %s %s: status %d, want 404", tr.method, tr.target, code)
		}
	}
	for _, tr := range []string{"/console/applications/sample-app/delete", "/console/connections/sample-sp/delete", "/console/connections/sample-sp/test"} {
		if code, _, _ := f.serve(t, f.adminB, "en", "POST", tr, nil); code != http.StatusNotFound {
			t.Errorf("admin B POST %s: status %d, want 404", tr, code)
		}
	}
	if after := f.registry(t); len(after.Applications) != len(before.Applications) || len(after.Provisionings) != len(before.Provisionings) {
		t.Errorf("admin B changed the registry")
	}
	doc := f.registry(t)
	var got []string
	for _, a := range doc.Applications {
		got = append(got, a.ManageID+"="+a.Name)
	}
	// A manage id with slashes (a SAML entity id) works through the escaped address.
	if code, body, _ := f.serve(t, f.super, "en", "POST", "/console/applications/new", appForm("https://slashed.example.org/sp", "Slashed")); code != http.StatusSeeOther {
		t.Fatalf("slashed manage id: %d: %s", code, body)
	}
	_, list, _ := f.serve(t, f.super, "en", "GET", "/console/applications", nil)
	if !strings.Contains(list, `href="/console/applications/https:%2F%2Fslashed.example.org%2Fsp/edit"`) {
		t.Errorf("the list's link to a slashed manage id is not escaped")
	}
	if code, body, _ := f.serve(t, f.super, "en", "GET", "/console/applications/https:%2F%2Fslashed.example.org%2Fsp/edit", nil); code != 200 ||
		!strings.Contains(body, `value="Slashed"`) || !strings.Contains(body, `action="/console/applications/https:%2F%2Fslashed.example.org%2Fsp/edit"`) {
		t.Errorf("slashed manage id's form: %d", code)
	}
	doc = f.registry(t)
	got = nil
	for _, a := range doc.Applications {
		got = append(got, a.ManageID+"="+a.Name)
	}
	if strings.Join(got, ",") != "b-app=B application,https://slashed.example.org/sp=Slashed,sample-app=Renamed,x-app=X" {
		t.Errorf("applications after the super user: %v", got)
	}

	// Institution admin A: org-a's items only; what A creates is org-a's.
	g := newRegistryFixture(t)
	for _, tr := range tries {
		tr.form = cloneValues(tr.form)
		if tr.form != nil {
			tr.form.Set("organizationGUID", "org-b") // ignored: an admin's items are their institution's
		}
		code, body, _ := g.serve(t, g.adminA, "nl", tr.method, tr.target, tr.form)
		if (tr.method == "POST" && code != http.StatusSeeOther) || (tr.method == "GET" && code != http.StatusOK) {
			t.Errorf("admin A %s %s: status %d: %s", tr.method, tr.target, code, body)
		}
		if strings.Contains(body, "B SCIM SP") || strings.Contains(body, "B application") {
			t.Errorf("admin A %s %s shows org-b's items", tr.method, tr.target)
		}
	}
	for _, a := range g.registry(t).Applications {
		if a.ManageID == "x-app" && a.OrganizationGUID != "org-a" {
			t.Errorf("admin A's new application belongs to %q", a.OrganizationGUID)
		}
	}
	for _, tr := range []try{{"GET", "/console/applications/b-app/edit", nil}, {"POST", "/console/applications/b-app/delete", nil},
		{"POST", "/console/connections/b-sp/edit", connForm("b-sp", "")}, {"POST", "/console/connections/b-sp/test", nil}} {
		if code, _, _ := g.serve(t, g.adminA, "en", tr.method, tr.target, tr.form); code != http.StatusNotFound {
			t.Errorf("admin A %s %s: status %d, want 404", tr.method, tr.target, code)
		}
	}
	if len(g.registry(t).Applications) != 3 {
		t.Errorf("admin A deleted another institution's application")
	}
}

func cloneValues(v url.Values) url.Values {
	if v == nil {
		return nil
	}
	out := url.Values{}
	for k, vs := range v {
		out[k] = append([]string{}, vs...)
	}
	return out
}

// TestConsoleRegistryValidation: each wrong field gets its plain-language
// message beside it in English and Dutch, what was typed stays (never the
// secret), and nothing is stored.
func TestConsoleRegistryValidation(t *testing.T) {
	f := newRegistryFixture(t)
	for lang, want := range map[string][]string{
		"en": {`id="manageId-error">Enter an identifier of letters, digits or . _ : / @ - without spaces.`,
			`id="landingPage-error">Enter the address guests go to, starting with https://.`,
			`id="logoUrl-error">Enter the logo&#39;s address, starting with https://.`,
			`id="manageType-error">Choose one of the types in the list.`},
		"nl": {`id="manageId-error">Vul een identifier in van letters, cijfers of . _ : / @ - zonder spaties.`,
			`id="landingPage-error">Vul het adres in waar gasten heen gaan, beginnend met https://.`},
	} {
		form := appForm("has spaces", "Typed name")
		form.Set("landingPage", "ftp://x")
		form.Set("logoUrl", "not a url")
		form.Set("manageType", "WHATEVER")
		code, body, _ := f.serve(t, f.super, lang, "POST", "/console/applications/new", form)
		if code != http.StatusBadRequest {
			t.Fatalf("%s: status %d", lang, code)
		}
		for _, s := range append(want, `value="has spaces"`, `value="Typed name"`, `value="ftp://x"`, `aria-invalid="true"`) {
			if !strings.Contains(body, s) {
				t.Errorf("%s: application form lacks %q", lang, s)
			}
		}
	}
	for lang, want := range map[string][]string{
		"en": {`id="baseUrl-error">Enter the SCIM base address`, `id="username-error">Enter the user name for Basic authentication.`,
			`id="timeoutSeconds-error">Enter a whole number of seconds from 0 to 60.`, `id="ratePerSecond-error">Enter a number from 0 to 10000.`,
			`id="maxPatchMembers-error">Enter a whole number from 0 to 10000.`, `id="version-error">`, `id="secret-error">Enter the credential`,
			`id="userIdentifier-error">Choose one of the attributes in the list.`},
		"nl": {`id="baseUrl-error">Vul het SCIM-basisadres in`, `id="timeoutSeconds-error">Vul een geheel aantal seconden in van 0 tot 60.`},
	} {
		form := connForm("new-sp", "")
		form.Set("baseUrl", "not a url")
		form.Set("username", "")
		form.Set("timeoutSeconds", "ten")
		form.Set("ratePerSecond", "-3")
		form.Set("maxPatchMembers", "1.5")
		form.Set("version", "two")
		form.Set("userIdentifier", "shoe size")
		code, body, _ := f.serve(t, f.super, lang, "POST", "/console/connections/new", form)
		if code != http.StatusBadRequest {
			t.Fatalf("%s: status %d: %s", lang, code, body)
		}
		for _, s := range append(want, `value="not a url"`, `value="ten"`, `value="New SP new-sp"`, `<option value="PUT" selected>`) {
			if !strings.Contains(body, s) {
				t.Errorf("%s: connection form lacks %q", lang, s)
			}
		}
	}
	// A typed secret is never echoed, even when another field is wrong.
	form := connForm("sample-sp", "typed-secret-value")
	form.Set("baseUrl", "not a url")
	if code, body, _ := f.serve(t, f.super, "en", "POST", "/console/connections/sample-sp/edit", form); code != 400 || strings.Contains(body, "typed-secret-value") {
		t.Errorf("edit with a wrong base URL: status %d, secret echoed %v", code, strings.Contains(body, "typed-secret-value"))
	}
	// A taken identifier is said beside the field.
	if code, body, _ := f.serve(t, f.super, "en", "POST", "/console/connections/new", connForm("sample-sp", "x")); code != http.StatusConflict ||
		!strings.Contains(body, `id="id-error">This identifier is already in use`) {
		t.Errorf("taken id: status %d", code)
	}
	if doc := f.registry(t); len(doc.Applications) != 2 || len(doc.Provisionings) != 2 || doc.Provisionings[1].BaseURL != "https://sp.example.org/scim" {
		t.Errorf("a refused form changed the registry: %+v", doc)
	}
}

// TestConsoleConnectionSecretWriteOnly: the edit form never holds the
// secret; left empty the stored credential stays; typed, a new one is
// stored; the audit names no value.
func TestConsoleConnectionSecretWriteOnly(t *testing.T) {
	f := newRegistryFixture(t)
	code, body, _ := f.serve(t, f.super, "en", "GET", "/console/connections/sample-sp/edit", nil)
	if code != 200 || !strings.Contains(body, `<input type="password" id="secret" name="secret" value=""`) || !strings.Contains(body, `value="https://sp.example.org/scim"`) {
		t.Fatalf("edit form: status %d: %s", code, body)
	}
	ref := func() string {
		for _, c := range f.registry(t).Provisionings {
			if c.ID == "sample-sp" {
				return c.Auth.SecretRef()
			}
		}
		return ""
	}
	old := ref()
	form := url.Values{"name": {"Sample SCIM SP renamed"}, "baseUrl": {"https://sp.example.org/scim"}, "method": {"bearer"}, "membership": {"PATCH"}, "organizationGUID": {"org-a"}}
	if code, _, h := f.serve(t, f.super, "en", "POST", "/console/connections/sample-sp/edit", form); code != http.StatusSeeOther ||
		h.Get("Location") != "/console/connections/sample-sp?done=connectionSaved" {
		t.Fatalf("keep: status %d, location %q", code, h.Get("Location"))
	}
	if ref() != old {
		t.Errorf("an empty secret field replaced the credential")
	}
	// Where the credential goes changes: it must be typed again, said next
	// to its field, with what was typed kept; an internal address is
	// refused next to the address.
	form.Set("baseUrl", "https://sp2.example.org/scim")
	for lang, want := range map[string]string{"en": `id="secret-error">Enter the credential again`, "nl": `id="secret-error">Vul het geheim opnieuw in`} {
		code, body, _ := f.serve(t, f.adminA, lang, "POST", "/console/connections/sample-sp/edit", form)
		if code != http.StatusBadRequest || !strings.Contains(body, want) || !strings.Contains(body, `value="https://sp2.example.org/scim"`) ||
			!strings.Contains(body, `value="Sample SCIM SP renamed"`) {
			t.Fatalf("%s: address changed without the credential: status %d: %s", lang, code, body)
		}
	}
	if ref() != old || f.registry(t).Provisionings[1].BaseURL != "https://sp.example.org/scim" {
		t.Fatal("a refused change was stored")
	}
	internal := url.Values{"name": {"Sample SCIM SP"}, "baseUrl": {"https://169.254.169.254/latest"}, "method": {"bearer"}, "membership": {"PATCH"}, "secret": {"x"}}
	if code, body, _ := f.serve(t, f.adminA, "en", "POST", "/console/connections/sample-sp/edit", internal); code != http.StatusBadRequest ||
		!strings.Contains(body, `id="baseUrl-error">The service does not call this address`) || !strings.Contains(body, `value="https://169.254.169.254/latest"`) {
		t.Fatalf("internal address: status %d: %s", code, body)
	}
	form.Set("secret", "rotated-token")
	if code, _, _ := f.serve(t, f.super, "en", "POST", "/console/connections/sample-sp/edit", form); code != http.StatusSeeOther {
		t.Fatalf("rotate: status %d", code)
	}
	if v, _ := f.vault.Resolve(context.Background(), ref()); ref() == old || v != "rotated-token" {
		t.Errorf("the typed secret was not stored (%v)", ref() == old)
	}
	// The pages after the rotation show neither the value nor its reference (serve checks).
	for _, target := range []string{"/console/applications", "/console/connections/sample-sp", "/console/connections/sample-sp/edit"} {
		if code, body, _ := f.serve(t, f.super, "nl", "GET", target, nil); code != 200 || strings.Contains(body, "rotated-token") {
			t.Errorf("%s: status %d", target, code)
		}
	}
}

// TestConsoleRegistryDelete: a deletion asks first; a role using the
// application makes the service refuse and the page says so in words;
// an unused application and connection are deleted.
func TestConsoleRegistryDelete(t *testing.T) {
	f := newRegistryFixture(t)
	code, body, _ := f.serve(t, f.super, "en", "GET", "/console/applications/sample-app/delete", nil)
	if code != 200 || !strings.Contains(body, `id="confirm-delete"`) || !strings.Contains(body, "Sample application is removed for good") {
		t.Fatalf("confirmation: status %d: %s", code, body)
	}
	for lang, msg := range map[string]string{"en": "This application cannot be deleted: one or more roles use it.",
		"nl": "Deze applicatie kan niet worden verwijderd: een of meer rollen gebruiken haar."} {
		code, body, _ := f.serve(t, f.super, lang, "POST", "/console/applications/sample-app/delete", nil)
		if code != http.StatusConflict || !strings.Contains(body, msg) || strings.Contains(body, `id="confirm-delete"`) {
			t.Errorf("%s: in use: status %d: %s", lang, code, body)
		}
	}
	if code, body, _ := f.serve(t, f.super, "en", "POST", "/console/connections/b-sp/delete", nil); code != http.StatusConflict ||
		!strings.Contains(body, "This SCIM connection cannot be deleted: one or more applications use it.") {
		t.Errorf("connection in use: status %d", code)
	}
	if code, _, h := f.serve(t, f.super, "en", "POST", "/console/applications/b-app/delete", nil); code != http.StatusSeeOther ||
		h.Get("Location") != "/console/applications?done=applicationDeleted" {
		t.Errorf("delete b-app: status %d", code)
	}
	if code, _, _ := f.serve(t, f.super, "en", "POST", "/console/connections/b-sp/delete", nil); code != http.StatusSeeOther {
		t.Errorf("delete b-sp: status %d", code)
	}
	doc := f.registry(t)
	if len(doc.Applications) != 1 || doc.Applications[0].ManageID != "sample-app" || len(doc.Provisionings) != 1 {
		t.Errorf("after the deletions: %+v", doc)
	}
	if _, err := f.vault.Resolve(context.Background(), "secretsmanager:test-vault/b-sp?versionId=v11#token"); err == nil {
		t.Errorf("the deleted connection's secret stays in the vault")
	}
}
