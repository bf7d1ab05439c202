package web

import (
	"testing"

	"github.com/edu-invite/invite/shared/domain"
)

// TestApplicationsAreNamedByTheirOrganization: an application of a named
// organization shows that organization's names, in each language; one of
// an organization nobody named, or of none, keeps its own.
func TestApplicationsAreNamedByTheirOrganization(t *testing.T) {
	orgs := []domain.Organization{{GUID: "org-a", Name: "Alpha University", NameNL: "Alfa Universiteit"}, {GUID: "org-x"}}
	own := domain.Application{Name: "Wiki", OrganizationName: "Old name", OrganizationNameNL: "Oude naam"}
	for _, c := range []struct {
		name, guid string
		en, nl     string
	}{
		{"named organization", "org-a", "Alpha University", "Alfa Universiteit"},
		{"organization without a name", "org-x", "Old name", "Oude naam"},
		{"unknown organization", "org-unknown", "Old name", "Oude naam"},
		{"no organization", "", "Old name", "Oude naam"},
	} {
		a := own
		a.OrganizationGUID = c.guid
		roles := rolesNamedByOrganization(orgs, []domain.Role{{Name: "R", ApplicationUsages: []domain.ApplicationUsage{{Application: a}}}})
		for lang, want := range map[string]string{"en": c.en, "nl": c.nl} {
			if got := rolesView(lang, roles)[0].Applications[0].Organization; got != want {
				t.Errorf("%s, %s: %q, want %q", c.name, lang, got, want)
			}
		}
	}
	// The roles given keep their own names.
	roles := []domain.Role{{ApplicationUsages: []domain.ApplicationUsage{{Application: domain.Application{OrganizationGUID: "org-a", OrganizationName: "Old"}}}}}
	rolesNamedByOrganization(orgs, roles)
	if roles[0].ApplicationUsages[0].Application.OrganizationName != "Old" {
		t.Error("the roles given were changed")
	}
}
