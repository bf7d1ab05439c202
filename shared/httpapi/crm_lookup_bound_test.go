package httpapi_test

import (
	"net/http"
	"strings"
	"testing"
)

// An organisation lookup of more contacts than it answers is refused with
// the error body and 400, saying how to ask for less; up to the bound it
// answers them all.
func TestCRMOrganisationLookupPastTheBoundIsRefused(t *testing.T) {
	w := newCRMWorld(t)
	wantText(t, w.crm("crm", "POST", "/crm/profile", crmProfileBody("c-1", "jdoe", true, "crm-x")), "created")
	wantText(t, w.crm("crm", "POST", "/crm/profile", strings.Replace(crmProfileBody("c-2", "", false, "crm-x"), "jdoe@example.com", "other@example.com", 1)), "created")

	w.Svc.CRMProfilesBound = 2
	if rec := w.crm("crm", "GET", "/crm/api/v1/profiles?org_guid="+crmOrg, ""); rec.Code != http.StatusOK || len(decode[map[string]any](t, rec)) != 2 {
		t.Fatalf("at the bound: %d %s", rec.Code, rec.Body)
	}
	w.Svc.CRMProfilesBound = 1
	rec := w.crm("crm", "GET", "/crm/api/v1/profiles?org_guid="+crmOrg, "")
	body := decode[map[string]any](t, rec)
	msg, _ := body["message"].(string)
	if rec.Code != http.StatusBadRequest || body["status"] != float64(400) || !strings.Contains(msg, "more than 1 contacts") || !strings.Contains(msg, "connected=true") {
		t.Fatalf("past the bound: %d %v; want 400 saying how to ask for less", rec.Code, body)
	}
	if rec := w.crm("crm", "GET", "/crm/api/v1/profiles?org_guid="+crmOrg+"&connected=true", ""); rec.Code != http.StatusOK || len(decode[map[string]any](t, rec)) != 1 {
		t.Fatalf("the paired only, at the bound: %d %s", rec.Code, rec.Body)
	}
}
