//go:build parity

package parity

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// The scenarios below drive the code paths whose item kinds the least
// privilege grants name one by one (infra/table_access.go): each runs
// through the real function with its template role, and a read or write
// of an item kind the role does not name fails the test (noDenials).

// ensureCoverageApp saves an application of the organization from the
// console (the registry is written by the web and system functions only)
// and answers its manage id: a role names applications of its own
// organization.
func ensureCoverageApp(t *testing.T, org string) string {
	t.Helper()
	app := "zz-coverage-" + org
	if savedApps[app] {
		return app
	}
	admin := newBrowser(t)
	admin.signIn(superUser, "/console")
	// Named to come last in the console's role form, whose other tests
	// tick its first application.
	code, page, _ := admin.post("/console/applications/new", url.Values{"manageId": {app}, "manageType": {"OIDC10_RP"},
		"name": {"Zz coverage app"}, "nameNl": {"Zz coverage app"}, "organizationName": {"Parity"}, "organizationNameNl": {"Parity"},
		"landingPage": {"https://coverage.parity.example.org"}, "organizationGUID": {org}})
	if code != http.StatusOK {
		t.Fatalf("save the application: %d %.800s", code, textOf(page))
	}
	savedApps[app] = true
	return app
}

// savedApps are the applications ensureCoverageApp saved in this run.
var savedApps = map[string]bool{}

// apiRole creates a role of the organization through the API and answers
// its id.
func apiRole(t *testing.T, name, org string) string {
	t.Helper()
	return apiRoleWithApp(t, name, org, ensureCoverageApp(t, org))
}

// apiRoleWithApp creates a role of the organization, for the saved
// application, through the API and answers its id.
func apiRoleWithApp(t *testing.T, name, org, app string) string {
	t.Helper()
	body := `{"name":"` + name + `","description":"` + name + ` of the coverage test","organizationGUID":"` + org + `","defaultExpiryDays":30,` +
		`"applicationUsages":[{"landingPage":"https://coverage.parity.example.org","application":{"manageId":"` + app + `"}}]}`
	// A warm roles function whose cached registry lacks the new
	// application reloads it on the miss (config.MissRefresh, 2 s), long
	// before its refresh (config.DefaultRefresh, 30 s).
	for deadline := time.Now().Add(10 * time.Second); ; {
		code, out := superUserCall(t, http.MethodPost, "/api/v1/roles", body)
		if code == http.StatusCreated {
			id := idOf(out)
			if id == "" {
				t.Fatalf("role %s created without an id", name)
			}
			return id
		}
		if msg, _ := out["message"].(string); code != http.StatusBadRequest || !strings.Contains(msg, "not in the registry") || time.Now().After(deadline) {
			t.Fatalf("create role %s: %d %v", name, code, out)
		}
		time.Sleep(time.Second)
	}
}

// TestUsersExternalFeaturesWithTheirItemKinds: VOOT, attribute aggregation
// and deprovisioning (dry run, then erase) of a provisioned person, through
// the users function.
func TestUsersExternalFeaturesWithTheirItemKinds(t *testing.T) {
	noDenials(t)
	api := superUserAPI(t)
	roleID := apiRole(t, "VOOT role", "org-parity")
	const sub = "urn:collab:person:parity.example.org:voot-person"
	api.call(http.MethodPost, "/api/v1/user_roles/user_role_provisioning",
		`{"roleIdentifiers":[`+roleID+`],"sub":"`+sub+`","email":"voot@parity.example.org","givenName":"Vo","familyName":"Ot"}`, http.StatusCreated)

	groups, _ := api.call(http.MethodGet, "/api/external/v1/voot/"+url.PathEscape(sub), "", http.StatusOK).([]any)
	if len(groups) != 1 {
		t.Fatalf("VOOT groups %v, want the one role", groups)
	}
	aa := api.call(http.MethodGet, "/api/external/v1/aa/"+url.PathEscape(sub), "", http.StatusOK)
	if raw, _ := json.Marshal(aa); !strings.Contains(string(raw), "urn:") {
		t.Errorf("aggregated attributes %s name no role", raw)
	}
	api.call(http.MethodGet, "/api/external/v1/deprovision/"+url.PathEscape(sub), "", http.StatusOK)
	api.call(http.MethodDelete, "/api/external/v1/deprovision/"+url.PathEscape(sub)+"/dry-run", "", http.StatusOK)
	api.call(http.MethodDelete, "/api/external/v1/deprovision/"+url.PathEscape(sub), "", http.StatusOK)
	if after, _ := api.call(http.MethodGet, "/api/external/v1/voot/"+url.PathEscape(sub), "", http.StatusOK).([]any); len(after) != 0 {
		t.Errorf("after the erase VOOT still answers %v", after)
	}
}

// TestJobsFunctionRunsEachJobKind: seed, index repair, cleanup and
// reminders each answer 202 from the system function and run in the jobs
// function with its role.
func TestJobsFunctionRunsEachJobKind(t *testing.T) {
	for _, tc := range []struct{ name, method, path string }{
		{"seed", http.MethodPut, "/api/v1/system/performance-seed?numberOfRole=2&numberOfUsers=4"},
		{"index repair", http.MethodPost, "/api/v1/system/index-repair"},
		{"cleanup", http.MethodGet, "/api/v1/system/cron/cleanup"},
		{"reminders", http.MethodGet, "/api/v1/system/cron/expiry-notifications"},
		{"landing page fix", http.MethodGet, "/api/v1/system/landing-page-fix"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			noDenials(t)
			code, job := superUserCall(t, tc.method, tc.path, "")
			statusURL, _ := job["statusUrl"].(string)
			if code != http.StatusAccepted || statusURL == "" {
				t.Fatalf("%s: %d %v, want 202 with a job", tc.path, code, job)
			}
			if job = pollJob(t, statusURL); job["status"] != "succeeded" {
				t.Fatalf("%s job %v", tc.name, job)
			}
		})
	}
}

// TestConsoleTokensAdminsOrganizationsPages: the web function's token,
// administrators and organizations pages, read and written.
func TestConsoleTokensAdminsOrganizationsPages(t *testing.T) {
	noDenials(t)
	admin := newBrowser(t)
	admin.signIn(superUser, "/console")

	code, page, _ := admin.post("/console/tokens", url.Values{"description": {"coverage token"}, "organization": {"org-parity"}})
	if code != http.StatusCreated || !strings.Contains(page, "coverage token") {
		t.Fatalf("create a token: %d %.800s", code, textOf(page))
	}
	code, page = admin.get("/console/tokens")
	ids := regexp.MustCompile(`/console/tokens/([^/"]+)/delete`).FindAllStringSubmatch(page, -1)
	if code != http.StatusOK || len(ids) == 0 {
		t.Fatalf("tokens page: %d, no token to delete: %.800s", code, textOf(page))
	}
	for _, id := range ids {
		if code, page, _ = admin.post("/console/tokens/"+id[1]+"/delete", url.Values{}); code != http.StatusOK {
			t.Fatalf("delete token %s: %d %.500s", id[1], code, textOf(page))
		}
	}

	if code, page = admin.get("/console/admins?org=org-parity"); code != http.StatusOK {
		t.Fatalf("administrators page: %d %.800s", code, textOf(page))
	}
	code, page, _ = admin.post("/console/admins/invite", url.Values{"org": {"org-parity"}, "email": {"inst-admin@parity.example.org"}})
	if code != http.StatusCreated {
		t.Fatalf("invite an institution admin: %d %.800s", code, textOf(page))
	}
	waitForMailLink(t, "inst-admin@parity.example.org")

	code, page, _ = admin.post("/console/organizations", url.Values{"guid": {"org-coverage"}, "name": {"Coverage Org"}, "nameNl": {"Dekking Org"}})
	if code != http.StatusOK {
		t.Fatalf("name an organization: %d %.800s", code, textOf(page))
	}
	code, page, _ = admin.post("/console/organizations/org-coverage/edit", url.Values{"name": {"Coverage Org Renamed"}, "nameNl": {"Dekking Org"}})
	if code != http.StatusOK {
		t.Fatalf("rename the organization: %d %.800s", code, textOf(page))
	}
	if code, page = admin.get("/console/organizations"); code != http.StatusOK || !strings.Contains(page, "Coverage Org Renamed") {
		t.Fatalf("organizations page: %d %.800s", code, textOf(page))
	}
}

// TestLoginAttributesSyncThroughTokens: a person's call with an access
// token whose attributes differ from the stored ones updates the user (and
// queues its SCIM updates), in the users, tokens and roles functions.
func TestLoginAttributesSyncThroughTokens(t *testing.T) {
	noDenials(t)
	const eppn = "sync@parity.example.org"
	mint := func(given string) *apiClient {
		token, err := env.IdP.Mint(map[string]any{"sub": "urn:collab:person:" + eppn, "eduperson_principal_name": eppn,
			"email": eppn, "given_name": given, "family_name": "Sync", "schac_home_organization": "parity.example.org"},
			env.Functions["system"].Env["OIDC_AUDIENCE"], time.Hour)
		if err != nil {
			t.Fatal(err)
		}
		return &apiClient{t: t, token: token}
	}
	givenName := func() string {
		u, err := env.Store.GetUserBySub(context.Background(), "urn:collab:person:"+eppn)
		if err != nil {
			t.Fatal(err)
		}
		return u.GivenName
	}
	// The person exists (a login syncs an existing user; it makes none).
	roleID := apiRole(t, "Sync role", "org-parity")
	superUserAPI(t).call(http.MethodPost, "/api/v1/user_roles/user_role_provisioning",
		`{"roleIdentifiers":[`+roleID+`],"sub":"urn:collab:person:`+eppn+`","email":"`+eppn+`","givenName":"Zero","familyName":"Sync"}`, http.StatusCreated)
	mint("First").call(http.MethodGet, "/api/v1/users/me", "", http.StatusOK)
	if got := givenName(); got != "First" {
		t.Fatalf("after a call to the users function the user is named %q, want First", got)
	}
	// The tokens function syncs the changed name (and refuses a person who
	// administers no tokens).
	mint("Second").call(http.MethodGet, "/api/v1/tokens", "", http.StatusForbidden)
	if got := givenName(); got != "Second" {
		t.Errorf("after a call to the tokens function the user is named %q, want the token's Second", got)
	}
	// And the roles function, the same (a guest lists no roles).
	mint("Third").call(http.MethodGet, "/api/v1/roles", "", http.StatusForbidden)
	if got := givenName(); got != "Third" {
		t.Errorf("after a call to the roles function the user is named %q, want Third", got)
	}
}

// TestCRMProfileWithMappedRoles: a CRM profile whose roles map to service
// roles (crmRoleId within the organisation) grants and later withdraws
// the memberships, through the crm function.
func TestCRMProfileWithMappedRoles(t *testing.T) {
	noDenials(t)
	api := superUserAPI(t)
	roleID := apiRole(t, "CRM mapped role", "parity-crm-mapped")
	// No API sets a role's CRM role (the CRM sync and the import do): the
	// test maps it in the table.
	id, _ := strconv.ParseInt(roleID, 10, 64)
	role, err := env.Store.GetRole(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	role.CRMRoleID, role.CRMRoleName = "crm-r1", "CRM R1"
	if err := env.Store.UpdateRole(context.Background(), role, nil); err != nil {
		t.Fatal(err)
	}
	crm := &apiClient{t: t, crmKey: env.CRMKey}
	profile := func(roles string) string {
		return `{"uid":"crm-mapped","schacHomeOrganisation":"parity.example.org","suppressInvitation":true,"contactId":"parity-c2",` +
			`"firstname":"Map","surname":"Ped","email":"crm-mapped@crm.parity.example.org",` +
			`"organisation":{"organisationId":"parity-crm-mapped","abbrev":"PCM","name":"Parity CRM Mapped"},"roles":[` + roles + `]}`
	}
	crm.call(http.MethodPost, "/crm/profile", profile(`{"roleId":"crm-r1","sabCode":"R1","name":"CRM R1"}`), http.StatusOK)
	members, _ := api.call(http.MethodGet, "/api/v1/user_roles/roles/"+roleID, "", http.StatusOK).([]any)
	if len(members) != 1 {
		t.Fatalf("members of the mapped role after the profile: %v, want the contact", members)
	}
	crm.call(http.MethodGet, "/crm/api/v1/profiles?org_guid=parity-crm-mapped", "", http.StatusOK)
	crm.call(http.MethodPost, "/crm/profile", profile(""), http.StatusOK)
	if members, _ = api.call(http.MethodGet, "/api/v1/user_roles/roles/"+roleID, "", http.StatusOK).([]any); len(members) != 0 {
		t.Errorf("members of the mapped role after the profile dropped it: %v", members)
	}
	crm.call(http.MethodDelete, "/crm/profile", profile(""), http.StatusOK)
}

// TestRoleListingsThroughCreateRenameDelete: the role listing items
// (RLIST#, RWORD#, ROLELISTING) written by role create, rename and delete,
// and the first two read by R1 with a query and with force, in the roles
// and web functions.
func TestRoleListingsThroughCreateRenameDelete(t *testing.T) {
	noDenials(t)
	api := superUserAPI(t)
	roleID := apiRole(t, "Listing Kestrel", "org-parity")
	names := func(path string) string {
		raw, _ := json.Marshal(api.call(http.MethodGet, path, "", http.StatusOK))
		return string(raw)
	}
	if got := names("/api/v1/roles?query=kestrel&force=true"); !strings.Contains(got, "Listing Kestrel") {
		t.Errorf("R1 with a query misses the new role: %.500s", got)
	}
	if got := names("/api/v1/roles?force=true"); !strings.Contains(got, "Listing Kestrel") {
		t.Errorf("R1 with force misses the new role: %.500s", got)
	}

	role, _ := api.call(http.MethodGet, "/api/v1/roles/"+roleID, "", http.StatusOK).(map[string]any)
	role["name"] = "Listing Osprey"
	body, _ := json.Marshal(role)
	api.call(http.MethodPut, "/api/v1/roles", string(body), http.StatusOK)
	if got := names("/api/v1/roles?query=osprey&force=true"); !strings.Contains(got, "Listing Osprey") {
		t.Errorf("R1 misses the renamed role: %.500s", got)
	}

	admin := newBrowser(t)
	admin.signIn(superUser, "/console")
	if code, page := admin.get("/console/roles?q=osprey"); code != http.StatusOK || !strings.Contains(page, "Listing Osprey") {
		t.Errorf("console role list with a query: %d %.800s", code, textOf(page))
	}
	if code, page := admin.get("/console/roles?sort=createdAt&dir=desc"); code != http.StatusOK {
		t.Errorf("console role list sorted: %d %.800s", code, textOf(page))
	}
	code, page, at := admin.post("/console/roles/new", url.Values{"name": {"Console Heron"}, "description": {"made in the console"},
		"days": {"30"}, "organization": {"org-parity"}, "app0": {"on"}, "landing0": {"https://coverage.parity.example.org"}})
	consoleID := regexp.MustCompile(`^/console/roles/(\d+)$`).FindStringSubmatch(at.Path)
	if code != http.StatusOK || consoleID == nil {
		t.Fatalf("create a role in the console: %d at %s: %.800s", code, at, textOf(page))
	}
	if code, page, _ = admin.post("/console/roles/"+consoleID[1]+"/delete", url.Values{}); code != http.StatusOK {
		t.Errorf("delete the console role: %d %.800s", code, textOf(page))
	}

	api.call(http.MethodDelete, "/api/v1/roles/"+roleID, "", http.StatusNoContent)
	if got := names("/api/v1/roles?query=osprey&force=true"); strings.Contains(got, "Listing Osprey") {
		t.Errorf("R1 still lists the deleted role: %.500s", got)
	}
}

// TestOrganizationsAPIWithItsItemKinds: organizations named, renamed and
// listed through the API, in the system function.
func TestOrganizationsAPIWithItsItemKinds(t *testing.T) {
	noDenials(t)
	api := superUserAPI(t)
	const path = "/api/v1/manage/organizations"
	created := api.call(http.MethodPost, path, `{"organizationGUID":"org-api-coverage","name":"API Coverage","nameNl":"API Dekking"}`, http.StatusCreated)
	guid, _ := field(created, "organizationGUID").(string)
	if guid == "" {
		t.Fatalf("created organization %v has no guid", created)
	}
	api.call(http.MethodPut, path+"/"+guid, `{"name":"API Coverage Renamed","nameNl":"API Dekking"}`, http.StatusOK)
	raw, _ := json.Marshal(api.call(http.MethodGet, path, "", http.StatusOK))
	if !strings.Contains(string(raw), "API Coverage Renamed") {
		t.Errorf("organizations %.500s miss the renamed one", raw)
	}
}
