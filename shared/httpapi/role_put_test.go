package httpapi_test

import (
	"net/http"
	"testing"

	"github.com/edu-invite/invite/shared/httpapi"
)

// Issue 21 item 7: PUT /api/v1/roles replaces the role, as documented in the
// README: a field left out takes its value on creation, while what a caller
// may not change (id, short name, URN, identifier, organization) is kept;
// the answer is 200.
func TestRolePutReplacesOmittedFields(t *testing.T) {
	w := newWorld(t)
	rec := w.do("super", "POST", "/api/v1/roles", `{"name": "Full role", "organizationGUID": "org-a", "description": "All of it",
		"defaultExpiryDays": 30, "enforceEmailEquality": true, "fedIDOnly": true, "overrideSettingsAllowed": true,
		"inviterDisplayName": "The lab", "applicationUsages": [{"landingPage": "https://wiki.example.org",
		"application": {"manageId": "wiki", "manageType": "SAML20_SP"}}]}`)
	if rec.Code != http.StatusCreated {
		t.Fatalf("create: %d %s", rec.Code, rec.Body.String())
	}
	before := decode[httpapi.RoleJSON](t, rec)
	rec = w.do("super", "PUT", "/api/v1/roles", `{"id": `+itoa(before.ID)+`, "name": "Full role",
		"applicationUsages": [{"application": {"manageId": "wiki", "manageType": "SAML20_SP"}}]}`)
	if rec.Code != http.StatusOK {
		t.Fatalf("update: %d %s, want 200", rec.Code, rec.Body.String())
	}
	after := decode[httpapi.RoleJSON](t, w.do("super", "GET", "/api/v1/roles/"+itoa(before.ID), ""))
	if after.Description != "" || after.DefaultExpiryDays != 0 || after.EnforceEmailEquality || after.FedIDOnly ||
		after.OverrideSettingsAllowed || after.InviterDisplayName != "" {
		t.Errorf("omitted fields kept their values, want the creation defaults: %+v", after)
	}
	if after.ShortName != before.ShortName || after.URN != before.URN || after.Identifier != before.Identifier ||
		after.OrganizationGUID != "org-a" || len(after.ApplicationUsages) != 1 {
		t.Errorf("fields a caller cannot change moved:\nbefore %+v\nafter  %+v", before, after)
	}
}
