package web

import (
	"bytes"
	"slices"
	"strings"
	"testing"

	"github.com/edu-invite/invite/shared/domain"
)

var wiki = domain.Application{ManageID: "wiki", Name: "Research wiki", NameNL: "Onderzoekswiki",
	OrganizationName: "Example University", OrganizationNameNL: "Voorbeeld Universiteit", LogoURL: "https://wiki.example.org/logo.png"}

func TestApplicationView(t *testing.T) {
	bare := domain.Application{ManageID: "bare-app", Name: "Bare", OrganizationName: "Only English"}
	tests := []struct {
		name, lang        string
		app               domain.Application
		wantName, wantOrg string
		wantLogo          string
	}{
		{"english", "en", wiki, "Research wiki", "Example University", "https://wiki.example.org/logo.png"},
		{"dutch", "nl", wiki, "Onderzoekswiki", "Voorbeeld Universiteit", "https://wiki.example.org/logo.png"},
		{"dutch falls back to english", "nl", bare, "Bare", "Only English", ""},
		{"no logo, no name", "en", domain.Application{ManageID: "urn:x"}, "urn:x", "", ""},
		{"script address is no logo", "en", domain.Application{Name: "X", LogoURL: "javascript:alert(1)"}, "X", "", ""},
		{"relative address is no logo", "en", domain.Application{Name: "X", LogoURL: "logo.png"}, "X", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v := applicationView(tt.lang, tt.app, "https://wiki.example.org/start")
			if v.Name != tt.wantName || v.Organization != tt.wantOrg || v.Logo != tt.wantLogo || v.LandingPage != "https://wiki.example.org/start" {
				t.Errorf("view = %+v, want name %q org %q logo %q", v, tt.wantName, tt.wantOrg, tt.wantLogo)
			}
			if !strings.Contains(v.OpenLabel, tt.wantName) {
				t.Errorf("open label %q does not name %q", v.OpenLabel, tt.wantName)
			}
		})
	}
}

// The acceptance page shows each application's logo (alt="", the name is
// beside it) and organization; an application without a logo has no <img>.
func TestInvitationPageShowsLogoAndOrganization(t *testing.T) {
	ts, err := parseTemplates()
	if err != nil {
		t.Fatal(err)
	}
	roles := []domain.Role{{Name: "Researchers", ApplicationUsages: []domain.ApplicationUsage{
		{Application: wiki}, {Application: domain.Application{ManageID: "plain", Name: "Plain app"}}}}}
	for lang, want := range map[string][]string{
		"en": {`<img class="app-logo" src="https://wiki.example.org/logo.png" alt=""`, "Research wiki", `<span class="org">Example University</span>`, "Plain app"},
		"nl": {`<img class="app-logo" src="https://wiki.example.org/logo.png" alt=""`, "Onderzoekswiki", `<span class="org">Voorbeeld Universiteit</span>`, "Plain app"},
	} {
		page := invitationPage{basePage: basePage{Lang: lang}, Roles: rolesView(lang, roles)}
		var buf bytes.Buffer
		if err := ts["invitation"].ExecuteTemplate(&buf, "layout", page); err != nil {
			t.Fatal(err)
		}
		html := buf.String()
		for _, w := range want {
			if !strings.Contains(html, w) {
				t.Errorf("%s page lacks %q", lang, w)
			}
		}
		if n := strings.Count(html, "<img"); n != 1 {
			t.Errorf("%s page has %d images, want 1 (the application without a logo has none)", lang, n)
		}
		if strings.Contains(html, "style=") {
			t.Errorf("%s page has inline style", lang)
		}
	}
}

// The policy lets logos come from https sites and nothing else loosen.
func TestContentSecurityPolicyAllowsHTTPSImagesOnly(t *testing.T) {
	directives := map[string][]string{}
	for _, d := range strings.Split(contentSecurityPolicy, ";") {
		f := strings.Fields(d)
		if len(f) > 0 {
			directives[f[0]] = f[1:]
		}
	}
	if !slices.Equal(directives["default-src"], []string{"'self'"}) {
		t.Errorf("default-src = %v", directives["default-src"])
	}
	img := directives["img-src"]
	for _, want := range []string{"'self'", "https:"} {
		if !slices.Contains(img, want) {
			t.Errorf("img-src %v lacks %s", img, want)
		}
	}
	for _, bad := range []string{"*", "http:", "'unsafe-inline'"} {
		if slices.Contains(img, bad) || strings.Contains(contentSecurityPolicy, "unsafe-") {
			t.Errorf("policy %q allows %s", contentSecurityPolicy, bad)
		}
	}
	for name := range directives {
		if !slices.Contains([]string{"default-src", "img-src", "base-uri", "frame-ancestors"}, name) {
			t.Errorf("unexpected directive %s (script, style and the rest fall back to default-src 'self')", name)
		}
	}
	if !slices.Equal(directives["frame-ancestors"], []string{"'none'"}) {
		t.Errorf("frame-ancestors = %v", directives["frame-ancestors"])
	}
}
