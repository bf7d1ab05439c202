package web

import (
	"context"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/edu-invite/invite/shared/auth"
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
