package web

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/edu-invite/invite/shared/auth"
	"github.com/edu-invite/invite/shared/config"
	"github.com/edu-invite/invite/shared/dynamo"
	"github.com/edu-invite/invite/shared/scimprobe"
	"github.com/edu-invite/invite/shared/service"
)

// TestConsoleApplicationsPage serves /console/applications: a super user
// sees the sample application and its SCIM connection in English and
// Dutch, never the credential's reference; a person who may not manage
// applications gets the 403 page.
func TestConsoleApplicationsPage(t *testing.T) {
	f := newConsoleFixture(t, 1, 1)
	serve := func(pr *auth.Principal, lang string) (int, string) {
		r := httptest.NewRequest("GET", "/console/applications", nil)
		r = r.WithContext(context.WithValue(r.Context(), visitKey{}, &visit{principal: pr, acceptLanguage: lang}))
		w := httptest.NewRecorder()
		f.pages.consoleApplications(w, r)
		return w.Code, w.Body.String()
	}
	for lang, want := range map[string][]string{
		"en": {"Applications and SCIM connections", "Landing page", "PATCH (only the changes)", "Configured (never shown)"},
		"nl": {"Applicaties en SCIM-koppelingen", "Startpagina", "PATCH (alleen de wijzigingen)", "Ingesteld (nooit getoond)"},
	} {
		code, body := serve(f.super, lang)
		if code != 200 {
			t.Fatalf("%s: status %d: %s", lang, code, body)
		}
		for _, s := range append(want, "Sample application", "https://sample.example.org", "Sample SCIM SP", "https://sp.example.org/scim", "bearer") {
			if !strings.Contains(body, s) {
				t.Errorf("%s: page lacks %q", lang, s)
			}
		}
		if strings.Contains(body, "NO_SUCH_TOKEN") {
			t.Errorf("%s: page shows the credential's reference", lang)
		}
	}
	guest := &auth.Principal{Kind: auth.KindPerson, Name: "guest", Person: &auth.Person{Name: "Guest"}}
	if code, body := serve(guest, "en"); code != 403 || strings.Contains(body, "Sample SCIM SP") {
		t.Errorf("guest: status %d, want 403 without the list", code)
	}
}

// TestConsoleConnectionPage serves a connection's page with its "Test
// connection" button, renders a probe report in plain words in both
// languages, and refuses a guest both the page and the test POST.
func TestConsoleConnectionPage(t *testing.T) {
	f := newConsoleFixture(t, 1, 1)
	// The registry managed as data: the sample connection in the table.
	svc := f.pages.cfg.Service
	store, ok := svc.Store.(*dynamo.Store)
	if !ok {
		t.Fatalf("store %T", svc.Store)
	}
	conn := config.ProvisioningDoc{ID: "sample-sp", Name: "Sample SCIM SP", BaseURL: "https://sp.example.org/scim", Membership: "PATCH",
		Auth: config.AuthDoc{Method: "bearer", Token: "env:NO_SUCH_TOKEN"}}
	if err := store.SaveConnection(context.Background(), conn, true, config.Change{Kind: config.KindConnection, ID: conn.ID, Action: config.ActionImport, By: "test", At: time.Now()}); err != nil {
		t.Fatal(err)
	}
	svc.RegistryAdmin = &service.RegistryAdmin{Store: store}
	serve := func(pr *auth.Principal, method string, h func(http.ResponseWriter, *http.Request)) (int, string) {
		r := httptest.NewRequest(method, "/console/connections/sample-sp", nil)
		r.SetPathValue("id", "sample-sp")
		r = r.WithContext(context.WithValue(r.Context(), visitKey{}, &visit{principal: pr, acceptLanguage: "en"}))
		w := httptest.NewRecorder()
		h(w, r)
		return w.Code, w.Body.String()
	}
	code, body := serve(f.super, "GET", f.pages.consoleConnection)
	if code != 200 || !strings.Contains(body, "Sample SCIM SP") || !strings.Contains(body, `action="/console/connections/sample-sp/test"`) ||
		!strings.Contains(body, "Sample application") || strings.Contains(body, "NO_SUCH_TOKEN") {
		t.Errorf("super user: status %d: %s", code, body)
	}
	guest := &auth.Principal{Kind: auth.KindPerson, Name: "guest", Person: &auth.Person{Name: "Guest"}}
	for _, c := range []struct {
		method string
		h      func(http.ResponseWriter, *http.Request)
	}{{"GET", f.pages.consoleConnection}, {"POST", f.pages.consoleConnectionTest}} {
		if code, body := serve(guest, c.method, c.h); code != 403 || strings.Contains(body, "Sample SCIM SP") {
			t.Errorf("guest %s: status %d, want 403", c.method, code)
		}
	}
	yes, no := true, false
	rep := scimprobe.Report{Reachable: true, TLSValid: &yes, CredentialsAccepted: &no, Capabilities: scimprobe.Capabilities{Patch: &yes},
		RecommendedMembership: "PATCH", ConfiguredMembership: "PUT", Warnings: []string{"w1"}}
	for lang, want := range map[string][]string{
		"en": {"Reachable: Yes", "Credentials accepted: No", "Supports PATCH: Yes", "Supports filtered look-ups: Unknown", "Recommended for group membership: PATCH (configured: PUT)."},
		"nl": {"Bereikbaar: Ja", "Inloggegevens geaccepteerd: Nee", "Ondersteunt PATCH: Ja", "Ondersteunt zoeken met filter: Onbekend", "Aanbevolen voor groepslidmaatschap: PATCH (ingesteld: PUT)."},
	} {
		v := reportOf(lang, rep)
		var got []string
		for _, l := range v.Lines {
			got = append(got, l.Label+": "+l.Value)
		}
		got = append(got, v.Recommendation)
		all := strings.Join(got, "\n")
		for _, s := range want {
			if !strings.Contains(all, s) {
				t.Errorf("%s: report lacks %q in\n%s", lang, s, all)
			}
		}
	}
}
