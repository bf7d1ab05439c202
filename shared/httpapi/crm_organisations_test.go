package httpapi_test

import (
	"net/http"
	"strings"
	"testing"
)

// The CRM lists the organisations its profile writes created and deletes
// one; others may not, and an unknown one is 400 as in the reference.
func TestCRMOrganisations(t *testing.T) {
	w := newCRMWorld(t)
	list := func() string {
		t.Helper()
		rec := w.crm("crm", "GET", "/crm/api/v1/organisations", "")
		if rec.Code != http.StatusOK {
			t.Fatalf("list: %d %s", rec.Code, rec.Body)
		}
		var ids []string
		for _, o := range decode[[]struct {
			OrganisationID string `json:"organisationId"`
			Abbrev         string `json:"abbrev"`
			Name           string `json:"name"`
		}](t, rec) {
			ids = append(ids, o.OrganisationID+"/"+o.Abbrev+"/"+o.Name)
		}
		return strings.Join(ids, " ")
	}
	if got := list(); got != "" {
		t.Fatalf("before any profile: %q", got)
	}
	wantText(t, w.crm("crm", "POST", "/crm/profile", crmProfileBody("c-1", "jdoe", true, "crm-x")), "created")
	other := strings.Replace(crmProfileBody("c-2", "", true, "crm-x"), `"organisationId":"`+crmOrg+`","abbrev":"CO","name":"CRM Org"`,
		`"organisationId":"aaa-first","abbrev":"AF","name":"First"`, 1)
	if rec := w.crm("crm", "POST", "/crm/profile", other); rec.Code != http.StatusOK {
		t.Fatalf("second profile: %d %s", rec.Code, rec.Body)
	}
	both := "aaa-first/AF/First " + crmOrg + "/CO/CRM Org"
	if got := list(); got != both {
		t.Fatalf("after two profiles: %q, want %q", got, both)
	}
	for _, tc := range []struct {
		name, caller, body string
		code               int
		after              string
	}{
		{"a super user may not", "super", `{"organisationId":"aaa-first"}`, http.StatusForbidden, both},
		{"the Basic CRM-scope caller may not", "pdp", `{"organisationId":"aaa-first"}`, http.StatusForbidden, both},
		{"the id is required", "crm", `{}`, http.StatusBadRequest, both},
		{"an unknown organisation", "crm", `{"organisationId":"nope"}`, http.StatusBadRequest, both},
		{"the CRM deletes one", "crm", `{"organisationId":"aaa-first"}`, http.StatusOK, crmOrg + "/CO/CRM Org"},
		{"twice is 400", "crm", `{"organisationId":"aaa-first"}`, http.StatusBadRequest, crmOrg + "/CO/CRM Org"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if rec := w.crm(tc.caller, "DELETE", "/crm/api/v1/organisations", tc.body); rec.Code != tc.code {
				t.Fatalf("delete: %d %s, want %d", rec.Code, rec.Body, tc.code)
			}
			if got := list(); got != tc.after {
				t.Errorf("after: %q, want %q", got, tc.after)
			}
		})
	}
	if rec := w.crm("pdp", "GET", "/crm/api/v1/organisations", ""); rec.Code != http.StatusForbidden {
		t.Errorf("list by the Basic caller: %d, want 403", rec.Code)
	}
}
