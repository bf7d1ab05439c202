package config

import "testing"

// TestOrganizationsAreNamedByTheirApplications: each organization of the
// registry once, named by the first application that names it, in the
// reader's language; an unknown GUID is named by itself.
func TestOrganizationsAreNamedByTheirApplications(t *testing.T) {
	const uni, college = "ad93daef-0911-e511-80d0-005056956c1a", "b1b2c3d4-0911-e511-80d0-005056956c1a"
	reg, err := New(Document{Applications: []ApplicationDoc{
		{ManageID: "a", ManageType: "SAML20_SP", Name: "A", LandingPage: "https://a.example.org", OrganizationGUID: uni},
		{ManageID: "b", ManageType: "SAML20_SP", Name: "B", LandingPage: "https://b.example.org", OrganizationGUID: uni,
			OrganizationName: "University of Harderwijk", OrganizationNameNL: "Universiteit Harderwijk"},
		{ManageID: "c", ManageType: "SAML20_SP", Name: "C", LandingPage: "https://c.example.org", OrganizationGUID: college,
			OrganizationName: "Amsterdam College"},
		{ManageID: "d", ManageType: "SAML20_SP", Name: "D", LandingPage: "https://d.example.org"},
	}})
	if err != nil {
		t.Fatal(err)
	}
	orgs := reg.Organizations()
	if len(orgs) != 2 || orgs[0].GUID != college || orgs[1].GUID != uni {
		t.Fatalf("organizations %+v, want the college then the university", orgs)
	}
	for _, c := range []struct{ guid, lang, want string }{
		{uni, "en", "University of Harderwijk"}, {uni, "nl", "Universiteit Harderwijk"},
		{college, "nl", "Amsterdam College"}, {"org-unknown", "en", "org-unknown"},
	} {
		o, _ := reg.Organization(c.guid)
		if got := o.DisplayName(c.lang); got != c.want {
			t.Errorf("%s in %s = %q, want %q", c.guid, c.lang, got, c.want)
		}
	}
}
