//go:build parity

package parity

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"
)

// apiTokenHeader carries an API token (shared/auth.APITokenHeader).
const apiTokenHeader = "X-API-TOKEN"

// crmKeyHeader carries the CRM's key (shared/auth.CRMKeyHeader).
const crmKeyHeader = "API-KEY"

// apiClient calls the API through the gateway with a bearer token.
type apiClient struct {
	t     *testing.T
	token string
	// apiKey is an API token, sent in its own header.
	apiKey string
	// crmKey is the CRM's machine-caller key.
	crmKey string
}

// superUserAPI is the API as the super user, with an access token of the
// development IdP.
func superUserAPI(t *testing.T) *apiClient {
	t.Helper()
	token, err := env.IdP.Mint(map[string]any{"sub": "urn:collab:person:" + superUser, "eduperson_principal_name": superUser},
		env.Functions["system"].Env["OIDC_AUDIENCE"], time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	return &apiClient{t: t, token: token}
}

// call sends a JSON request and fails the test unless the answer has the
// status wanted; it returns the decoded body.
func (c *apiClient) call(method, path, body string, want int) any {
	c.t.Helper()
	req, _ := http.NewRequest(method, env.Dep.GatewayURL+path, strings.NewReader(body))
	switch {
	case c.crmKey != "":
		req.Header.Set(crmKeyHeader, c.crmKey)
	case c.apiKey != "":
		req.Header.Set(apiTokenHeader, c.apiKey)
	default:
		req.Header.Set("Authorization", "Bearer "+c.token)
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := env.Gateway.Client().Do(req)
	if err != nil {
		c.t.Fatalf("%s %s: %v", method, path, err)
	}
	raw := readAll(c.t, resp)
	if resp.StatusCode != want {
		c.t.Fatalf("%s %s: %d, want %d: %.600s", method, path, resp.StatusCode, want, raw)
	}
	var out any
	_ = json.Unmarshal([]byte(raw), &out)
	return out
}

func field(v any, name string) any {
	m, _ := v.(map[string]any)
	return m[name]
}

func idOf(v any) string {
	switch x := field(v, "id").(type) {
	case float64:
		return fmt.Sprintf("%.0f", x)
	case string:
		return x
	}
	return ""
}

// TestAPIFunctionsWithTheirItemKinds drives the roles, invitations, users
// and tokens functions through their main operations, each with the role
// and environment of the template: a read or write of an item kind its
// role does not name (LeadingKeys) is a denial and fails the test.
func TestAPIFunctionsWithTheirItemKinds(t *testing.T) {
	noDenials(t)
	admin := newBrowser(t)
	admin.signIn(superUser, "/console")
	// Named to come last in the console's role form, whose other tests
	// tick its first application.
	code, page, _ := admin.post("/console/applications/new", url.Values{"manageId": {"zz-api-app"}, "manageType": {"OIDC10_RP"},
		"name": {"Zz API app"}, "nameNl": {"Zz API app"}, "organizationName": {"Parity"}, "organizationNameNl": {"Parity"},
		"landingPage": {"https://api.parity.example.org"}, "organizationGUID": {"org-parity"}})
	if code != http.StatusOK {
		t.Fatalf("save the application: %d %.800s", code, textOf(page))
	}
	api := superUserAPI(t)

	// roles
	role := api.call(http.MethodPost, "/api/v1/roles", `{"name":"API role","description":"Guests of the API test","organizationGUID":"org-parity",`+
		`"defaultExpiryDays":30,"applicationUsages":[{"landingPage":"https://api.parity.example.org","application":{"manageId":"zz-api-app"}}]}`, http.StatusCreated)
	roleID := idOf(role)
	if roleID == "" {
		t.Fatalf("created role without an id: %v", role)
	}
	api.call(http.MethodGet, "/api/v1/roles/"+roleID, "", http.StatusOK)
	api.call(http.MethodGet, "/api/v1/roles", "", http.StatusOK)

	// invitations
	api.call(http.MethodPost, "/api/v1/invitations", `{"intendedAuthority":"GUEST","invites":["api-invitee@parity.example.org"],"roleIdentifiers":[`+roleID+`],`+
		`"expiryDate":"`+time.Now().AddDate(0, 0, 14).Format("2006-01-02")+`"}`, http.StatusCreated)
	api.call(http.MethodGet, "/api/v1/invitations/roles/"+roleID, "", http.StatusOK)

	// users and memberships
	api.call(http.MethodPost, "/api/v1/user_roles/user_role_provisioning",
		`{"roleIdentifiers":[`+roleID+`],"email":"pat@parity.example.org","givenName":"Pat","familyName":"Parity"}`, http.StatusCreated)
	members, _ := api.call(http.MethodGet, "/api/v1/user_roles/roles/"+roleID, "", http.StatusOK).([]any)
	if len(members) != 1 {
		t.Fatalf("members of the role: %v, want Pat", members)
	}
	// U10 paged: the members index by name, the users, the member counter.
	paged := api.call(http.MethodGet, "/api/v1/user_roles/roles/"+roleID+"?pageNumber=0&pageSize=10", "", http.StatusOK)
	if content, _ := field(paged, "content").([]any); len(content) != 1 || fmt.Sprint(field(paged, "totalElements")) != "1" {
		t.Fatalf("a page of the role's members: %v, want Pat of 1", paged)
	}
	api.call(http.MethodGet, "/api/v1/users/me", "", http.StatusOK)
	api.call(http.MethodGet, "/api/v1/users/search?query=pat", "", http.StatusOK)

	// tokens and the audit, then a call with the new API token
	generated := api.call(http.MethodGet, "/api/v1/tokens/generate-token", "", http.StatusOK)
	value, _ := field(generated, "token").(string)
	if value == "" {
		t.Fatalf("generate-token answered %v", generated)
	}
	api.call(http.MethodPost, "/api/v1/tokens", `{"description":"parity","organizationGUID":"org-parity"}`, http.StatusOK)
	tokens, _ := api.call(http.MethodGet, "/api/v1/tokens", "", http.StatusOK).([]any)
	if len(tokens) == 0 {
		t.Fatal("the new token is not listed")
	}
	api.call(http.MethodGet, "/api/v1/user_roles_audit/search?roleId="+roleID, "", http.StatusOK)
	byToken := &apiClient{t: t, apiKey: value}
	byToken.call(http.MethodGet, "/api/external/v1/roles", "", http.StatusOK)
	for _, tok := range tokens {
		api.call(http.MethodDelete, "/api/v1/tokens/"+idOf(tok), "", http.StatusNoContent)
	}
	byToken.call(http.MethodGet, "/api/external/v1/roles", "", http.StatusUnauthorized)

	// The membership ends, then the role goes with its invitation.
	urID := idOf(members[0])
	api.call(http.MethodDelete, "/api/v1/user_roles/"+urID+"/true", "", http.StatusNoContent)
	api.call(http.MethodDelete, "/api/v1/roles/"+roleID, "", http.StatusNoContent)
}

// TestAPIConnectionSecretGoesWithIt: a SCIM connection saved through the
// API (the system function) gets its own secret, and deleting the
// connection deletes that secret, with the system function's role.
func TestAPIConnectionSecretGoesWithIt(t *testing.T) {
	noDenials(t)
	api := superUserAPI(t)
	const reg = "/api/v1/manage/registry/connections"
	api.call(http.MethodPost, reg, `{"id":"api-sp","name":"API SP","baseUrl":"http://127.0.0.1:9/scim","version":"v1",`+
		`"auth":{"method":"bearer"},"secret":"api-sp-token-0123456789"}`, http.StatusCreated)
	if !hasSecret("invite/scim-connections/api-sp") {
		t.Fatalf("no secret of the connection; secrets: %v", env.Secrets.Names())
	}
	api.call(http.MethodDelete, reg+"/api-sp", "", http.StatusNoContent)
	if hasSecret("invite/scim-connections/api-sp") {
		t.Errorf("the deleted connection's secret is still there: %v", env.Secrets.Names())
	}
	api.call(http.MethodGet, reg+"/api-sp", "", http.StatusNotFound)
}

// TestCRMFunctionWithItsItemKinds drives the crm function with the CRM's
// machine-caller key: a profile (organisation, contact, invitation), the
// lookups, and its deletion, with the crm function's role.
func TestCRMFunctionWithItsItemKinds(t *testing.T) {
	noDenials(t)
	crm := &apiClient{t: t, crmKey: env.CRMKey}
	profile := `{"uid":"crm-jane","schacHomeOrganisation":"parity.example.org","suppressInvitation":false,"contactId":"parity-c1",` +
		`"firstname":"Jane","surname":"Parity","email":"crm-jane@crm.parity.example.org",` +
		`"organisation":{"organisationId":"parity-crm-org","abbrev":"PCO","name":"Parity CRM Org"},"roles":[]}`
	crm.call(http.MethodPost, "/crm/profile", profile, http.StatusOK)
	orgs, _ := crm.call(http.MethodGet, "/crm/api/v1/organisations", "", http.StatusOK).([]any)
	if len(orgs) == 0 {
		t.Fatal("the CRM organisation is not listed")
	}
	crm.call(http.MethodGet, "/crm/api/v1/profiles?org_guid=parity-crm-org", "", http.StatusOK)
	crm.call(http.MethodGet, "/api/profile?guid=parity-crm-org", "", http.StatusOK)
	crm.call(http.MethodDelete, "/crm/profile", profile, http.StatusOK)
}
