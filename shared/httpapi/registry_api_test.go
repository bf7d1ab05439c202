package httpapi_test

import (
	"bytes"
	"context"
	"log/slog"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/edu-invite/invite/localstack/scimsp"
	"github.com/edu-invite/invite/shared/service"
	"github.com/edu-invite/invite/shared/testkit"
)

// TestConnectionCredentialsAreWriteOnly creates, reads, lists, rotates and
// tests a connection through the API and checks that no answer, no change
// record and no log line holds the credential, while the vault does and
// the connection test uses it.
func TestConnectionCredentialsAreWriteOnly(t *testing.T) {
	w := newWorld(t)
	var logs bytes.Buffer
	w.Svc.Logger = slog.New(slog.NewJSONHandler(&logs, nil))
	sp := scimsp.New(scimsp.Options{BasicUser: "invite", BasicPassword: "first-Secret-4711"})
	srv := httptest.NewServer(sp.Handler())
	defer srv.Close()
	reg := "/api/v1/manage/registry"

	var answers []string
	call := func(caller, method, path, body string, want int) string {
		t.Helper()
		rec := w.do(caller, method, path, body)
		if rec.Code != want {
			t.Fatalf("%s %s: %d, want %d: %s", method, path, rec.Code, want, rec.Body.String())
		}
		answers = append(answers, rec.Body.String())
		return rec.Body.String()
	}
	created := call("instAdmin", "POST", reg+"/connections", `{"id": "lab-sp", "name": "Lab", "baseUrl": "`+srv.URL+`",
		"membership": "PATCH", "organizationGUID": "org-b", "auth": {"method": "basic", "username": "invite"}, "secret": "first-Secret-4711"}`, 201)
	view := decodeString[service.ConnectionView](t, created)
	if !view.Credential.Configured || !view.Credential.Managed || view.Credential.Reference != "" || view.OrganizationGUID != "org-a" {
		t.Errorf("created connection: %+v (an institution admin's connection is their institution's)", view)
	}
	report := decodeString[map[string]any](t, call("instAdmin", "POST", reg+"/connections/lab-sp/test", "", 200))
	if report["ok"] != true || report["credentialsAccepted"] != true {
		t.Fatalf("test with the stored credential: %v", report)
	}
	call("instAdmin", "PUT", reg+"/connections/lab-sp", `{"baseUrl": "`+srv.URL+`", "auth": {"method": "basic", "username": "invite"}, "secret": "second-Secret-0815"}`, 200)
	report = decodeString[map[string]any](t, call("instAdmin", "POST", reg+"/connections/lab-sp/test", "", 200))
	if report["credentialsAccepted"] != false {
		t.Fatalf("after rotation to a credential the SP does not know, the test must see it refused: %v", report)
	}
	call("super", "GET", reg+"/connections/lab-sp", "", 200)
	call("super", "GET", reg+"/connections", "", 200)
	changes := call("super", "GET", reg+"/changes", "", 200)
	if !strings.Contains(changes, `"secretChanged":true`) || !strings.Contains(changes, `"by":"instAdmin@example.org"`) {
		t.Errorf("changes do not record the credential write: %s", changes)
	}
	doc, _ := w.Store.LoadRegistry(context.Background())
	stored := ""
	for _, c := range doc.Provisionings {
		if c.ID == "lab-sp" {
			stored = c.Auth.Password
		}
	}
	if !strings.HasPrefix(stored, testkit.VaultPrefix+"lab-sp?versionId=") {
		t.Errorf("the table holds %q, want a reference to the connection's own secret", stored)
	}
	openapi := call("anonymous", "GET", "/api/docs/openapi.json", "", 200)
	for _, secret := range append(w.Vault.Secrets(), "first-Secret-4711") {
		for _, a := range append(answers, openapi) {
			if strings.Contains(a, secret) {
				t.Errorf("an answer holds the credential: %.300s", a)
			}
		}
		if strings.Contains(logs.String(), secret) || strings.Contains(stored, secret) {
			t.Error("a log line or the table holds the credential")
		}
	}
	if !strings.Contains(logs.String(), `"msg":"registry changed"`) {
		t.Errorf("changes are not logged: %s", logs.String())
	}
}

func TestRegistryValidationNamesEachField(t *testing.T) {
	w := newWorld(t)
	rec := w.do("super", "POST", "/api/v1/manage/registry/connections", `{"id": "bad id", "baseUrl": "ftp://x", "version": "2",
		"membership": "POST", "userIdentifier": "uid", "timeoutSeconds": 600, "auth": {"method": "digest"}, "secret": "x"}`)
	msg := rec.Body.String()
	for _, field := range []string{"id ", "baseUrl", "version", "membership", "userIdentifier", "timeoutSeconds", "auth.method"} {
		if !strings.Contains(msg, field) {
			t.Errorf("400 does not name %s: %s", field, msg)
		}
	}
	rec = w.do("super", "POST", "/api/v1/manage/registry/connections", `{"id": "no-secret", "baseUrl": "https://x.example.org", "auth": {"method": "bearer"}}`)
	if rec.Code != 400 || !strings.Contains(rec.Body.String(), "secret is required") {
		t.Errorf("a connection without credential: %d %s", rec.Code, rec.Body.String())
	}
	rec = w.do("super", "POST", "/api/v1/manage/registry/applications", `{"manageId": "a", "manageType": "SAML20_IDP", "logoUrl": "logo.png", "landingPage": "x"}`)
	for _, field := range []string{"manageType", "logoUrl", "landingPage"} {
		if rec.Code != 400 || !strings.Contains(rec.Body.String(), field) {
			t.Errorf("400 does not name %s: %s", field, rec.Body.String())
		}
	}
	// An institution admin may not link another institution's connection,
	// nor point a connection at a secret by reference.
	w.do("super", "POST", "/api/v1/manage/registry/connections", `{"id": "shared-sp", "baseUrl": "https://s.example.org", "auth": {"method": "bearer"}, "secret": "x"}`)
	rec = w.do("instAdmin", "POST", "/api/v1/manage/registry/applications", `{"manageId": "mine", "manageType": "SAML20_SP", "provisionings": ["shared-sp"]}`)
	// It is as unknown to them as a missing one.
	if rec.Code != 400 || !strings.Contains(rec.Body.String(), `no SCIM connection \"shared-sp\"`) {
		t.Errorf("linking another institution's connection: %d %s", rec.Code, rec.Body.String())
	}
	rec = w.do("super", "POST", "/api/v1/manage/registry/connections", `{"id": "steal", "baseUrl": "https://evil.example.org", "auth": {"method": "bearer", "token": "`+testkit.VaultPrefix+`shared-sp#token"}}`)
	if rec.Code != 400 || !strings.Contains(rec.Body.String(), "another connection's secret") {
		t.Errorf("a reference to another connection's secret: %d %s", rec.Code, rec.Body.String())
	}
	changes, _ := w.Store.RegistryChanges(context.Background(), 100)
	for _, ch := range changes {
		if ch.ID == "bad id" || ch.ID == "mine" || ch.ID == "steal" {
			t.Errorf("a refused change was recorded: %+v", ch)
		}
	}
}

// TestRegistryChangeReachesRoles links a new application to a role right
// after creating it: the change is seen at once in the function that made
// it, and the role's group is queued for the new SP.
func TestRegistryChangeReachesRoles(t *testing.T) {
	w := newWorld(t)
	w.do("super", "POST", "/api/v1/manage/registry/connections", `{"id": "new-sp", "baseUrl": "https://n.example.org", "auth": {"method": "bearer"}, "secret": "tok"}`)
	if rec := w.do("super", "POST", "/api/v1/manage/registry/applications", `{"manageId": "new-app", "manageType": "SAML20_SP", "provisionings": ["new-sp"]}`); rec.Code != 201 {
		t.Fatalf("create application: %d %s", rec.Code, rec.Body.String())
	}
	before := len(w.Queue.Deliveries())
	rec := w.do("super", "POST", "/api/v1/roles", `{"name": "Lab", "organizationGUID": "org-a", "defaultExpiryDays": 30,
		"applicationUsages": [{"application": {"manageId": "new-app", "manageType": "SAML20_SP"}}]}`)
	if rec.Code != 201 && rec.Code != 200 {
		t.Fatalf("role with the new application: %d %s", rec.Code, rec.Body.String())
	}
	found := false
	for _, d := range w.Queue.Deliveries()[before:] {
		if d.SPID == "new-sp" {
			found = true
		}
	}
	if !found {
		t.Errorf("no delivery queued for the new SP: %+v", w.Queue.Deliveries()[before:])
	}
}

func decodeString[T any](t testing.TB, s string) T {
	t.Helper()
	rec := httptest.NewRecorder()
	rec.Body.WriteString(s)
	return decode[T](t, rec)
}

// TestImportIsWholeAndRepeatable: a document with a mistake changes
// nothing; a good one is imported, secret references kept, and importing
// it again replaces rather than duplicates (ids stay).
func TestImportIsWholeAndRepeatable(t *testing.T) {
	w := newWorld(t)
	bad := `{"applications": [{"manageId": "imp", "manageType": "SAML20_SP", "provisionings": ["imp-sp"]}],
	  "provisionings": [{"id": "imp-sp", "baseUrl": "https://imp.example.org", "auth": {"method": "bearer", "token": "plain-value"}}]}`
	rec := w.do("super", "POST", "/api/v1/manage/registry/import", bad)
	if rec.Code != 400 || !strings.Contains(rec.Body.String(), "auth.token must be a secret reference") {
		t.Fatalf("a literal secret: %d %s", rec.Code, rec.Body.String())
	}
	rec = w.do("super", "POST", "/api/v1/manage/registry/import", `{"applications": [], "provisionigns": []}`)
	if rec.Code != 400 || !strings.Contains(rec.Body.String(), "provisionigns") {
		t.Fatalf("a misspelt key: %d %s", rec.Code, rec.Body.String())
	}
	if _, ok := w.Svc.Registry.Application("imp"); ok {
		t.Fatal("a refused import changed the registry")
	}
	good := strings.Replace(bad, `"plain-value"`, `"secretsmanager:elsewhere/imp#token"`, 1)
	for i := 0; i < 2; i++ {
		rec = w.do("super", "POST", "/api/v1/manage/registry/import", good)
		if rec.Code != 200 || !strings.Contains(rec.Body.String(), `"applications":1`) {
			t.Fatalf("import %d: %d %s", i, rec.Code, rec.Body.String())
		}
	}
	first, _ := w.Svc.Registry.Application("imp")
	apps := decode[[]service.ApplicationView](t, w.do("super", "GET", "/api/v1/manage/registry/applications", ""))
	n := 0
	for _, a := range apps {
		if a.ManageID == "imp" {
			n++
			if a.ID != first.ID || a.ID == 0 {
				t.Errorf("id changed on the second import: %d, %d", a.ID, first.ID)
			}
		}
	}
	if n != 1 {
		t.Fatalf("imp listed %d times", n)
	}
	conn := decode[service.ConnectionView](t, w.do("super", "GET", "/api/v1/manage/registry/connections/imp-sp", ""))
	if conn.Credential.Managed || conn.Credential.Reference != "secretsmanager:elsewhere/imp#token" {
		t.Errorf("the imported reference is not kept: %+v", conn.Credential)
	}
}
