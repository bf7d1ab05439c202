package auth

import (
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/edu-invite/invite/shared/domain"
)

const (
	testCRMKey      = "crm-key-0123456789abcdef"
	testPDPPassword = "pdp-password-0123456789"
	testOpsPassword = "ops-password-0123456789"
)

func testMachines(t *testing.T) *MachineCallers {
	t.Helper()
	raw := `{"crm": [{"name": "SURF CRM", "apiKeySha256": "` + HashToken(testCRMKey) + `"}],
	  "basic": [{"user": "pdp", "password": "` + testPDPPassword + `", "displayName": "PDP", "organizationGUID": "org-a", "scopes": ["invite", "crm"]},
	            {"user": "ops", "passwordSha256": "` + strings.ToUpper(HashToken(testOpsPassword)) + `", "superUser": true}]}`
	m, err := ParseMachineCallers([]byte(raw))
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func TestMachineCallers(t *testing.T) {
	a := &Authenticator{Tokens: fakeTokens{}, Machines: testMachines(t)}
	basic := func(user, password string) map[string]string {
		r := httptest.NewRequest("GET", "/", nil)
		r.SetBasicAuth(user, password)
		return map[string]string{"Authorization": r.Header.Get("Authorization")}
	}
	tests := []struct {
		name     string
		path     string
		headers  map[string]string
		wantKind domain.ErrorKind
		want     *Principal
	}{
		{name: "CRM key on C1", path: "/crm/profile", headers: map[string]string{CRMKeyHeader: testCRMKey},
			want: &Principal{Kind: KindCRM, Name: "SURF CRM"}},
		{name: "CRM key on C7", path: "/api/profile", headers: map[string]string{CRMKeyHeader: testCRMKey},
			want: &Principal{Kind: KindCRM, Name: "SURF CRM"}},
		{name: "CRM key on C7 external path", path: "/api/external/v1/invite/crm/profile", headers: map[string]string{CRMKeyHeader: testCRMKey},
			want: &Principal{Kind: KindCRM, Name: "SURF CRM"}},
		{name: "wrong CRM key", path: "/crm/profile", headers: map[string]string{CRMKeyHeader: "crm-key-guess"}, wantKind: domain.KindUnauthenticated},
		{name: "CRM key on roles", path: "/api/v1/roles", headers: map[string]string{CRMKeyHeader: testCRMKey}, wantKind: domain.KindForbidden},
		{name: "CRM key on the internal invite API", path: "/api/external/v1/internal/invite/roles", headers: map[string]string{CRMKeyHeader: testCRMKey}, wantKind: domain.KindForbidden},
		{name: "CRM key on a look-alike path", path: "/crmx/profile", headers: map[string]string{CRMKeyHeader: testCRMKey}, wantKind: domain.KindForbidden},
		{name: "Basic on the internal invite API", path: "/api/external/v1/internal/invite/invitations", headers: basic("pdp", testPDPPassword),
			want: &Principal{Kind: KindMachine, Name: "PDP", OrganizationGUID: "org-a"}},
		{name: "Basic with crm scope on C7", path: "/api/external/v1/invite/crm/profile", headers: basic("pdp", testPDPPassword),
			want: &Principal{Kind: KindMachine, Name: "PDP", OrganizationGUID: "org-a"}},
		{name: "Basic super user (hash given in upper case)", path: "/api/external/v1/internal/invite/roles", headers: basic("ops", testOpsPassword),
			want: &Principal{Kind: KindMachine, Name: "ops", SuperUser: true}},
		{name: "Basic without crm scope on C7", path: "/api/external/v1/invite/crm/profile", headers: basic("ops", testOpsPassword), wantKind: domain.KindForbidden},
		{name: "Basic on the public API", path: "/api/v1/roles", headers: basic("pdp", testPDPPassword), wantKind: domain.KindForbidden},
		{name: "Basic on the CRM key paths", path: "/crm/profile", headers: basic("pdp", testPDPPassword), wantKind: domain.KindForbidden},
		{name: "Basic on the external API", path: "/api/external/v1/invitations", headers: basic("pdp", testPDPPassword), wantKind: domain.KindForbidden},
		{name: "Basic wrong password", path: "/api/external/v1/internal/invite/roles", headers: basic("pdp", testOpsPassword), wantKind: domain.KindUnauthenticated},
		{name: "Basic other user's password", path: "/api/external/v1/internal/invite/roles", headers: basic("ops", testPDPPassword), wantKind: domain.KindUnauthenticated},
		{name: "Basic unknown user", path: "/api/external/v1/internal/invite/roles", headers: basic("nobody", testPDPPassword), wantKind: domain.KindUnauthenticated},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := httptest.NewRequest("POST", tc.path, nil)
			for k, v := range tc.headers {
				r.Header.Set(k, v)
			}
			p, err := a.Authenticate(r)
			if tc.wantKind != 0 {
				if domain.KindOf(err) != tc.wantKind || p != nil {
					t.Fatalf("got %+v, %v; want error kind %d", p, err, tc.wantKind)
				}
				for _, secret := range []string{testCRMKey, testPDPPassword, testOpsPassword} {
					if strings.Contains(err.Error(), secret) {
						t.Fatalf("error %q reveals a credential", err)
					}
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if p.Kind != tc.want.Kind || p.Name != tc.want.Name || p.OrganizationGUID != tc.want.OrganizationGUID || p.SuperUser != tc.want.SuperUser {
				t.Fatalf("principal %+v, want %+v", p, tc.want)
			}
		})
	}
}

func TestMachineCallersOff(t *testing.T) {
	a := &Authenticator{}
	r := httptest.NewRequest("POST", "/crm/profile", nil)
	r.Header.Set(CRMKeyHeader, testCRMKey)
	if _, err := a.Authenticate(r); domain.KindOf(err) != domain.KindUnauthenticated {
		t.Fatalf("CRM key without configured callers: %v", err)
	}
	r = httptest.NewRequest("POST", "/api/external/v1/internal/invite/roles", nil)
	r.SetBasicAuth("pdp", testPDPPassword)
	if _, err := a.Authenticate(r); domain.KindOf(err) != domain.KindUnauthenticated {
		t.Fatalf("Basic without configured callers: %v", err)
	}
}

func TestParseMachineCallersRefusesBadConfig(t *testing.T) {
	tests := []struct{ name, raw string }{
		{"not JSON", `generated-placeholder-value`},
		{"short key", `{"crm": [{"apiKey": "short"}]}`},
		{"key and hash", `{"crm": [{"apiKey": "` + testCRMKey + `", "apiKeySha256": "` + HashToken("x") + `"}]}`},
		{"bad hash", `{"crm": [{"apiKeySha256": "zz"}]}`},
		{"no credential", `{"crm": [{"name": "x"}]}`},
		{"basic without organization", `{"basic": [{"user": "u", "password": "` + testPDPPassword + `"}]}`},
		{"basic user with colon", `{"basic": [{"user": "u:v", "password": "` + testPDPPassword + `", "superUser": true}]}`},
		{"basic twice", `{"basic": [{"user": "u", "password": "` + testPDPPassword + `", "superUser": true}, {"user": "u", "password": "` + testOpsPassword + `", "superUser": true}]}`},
		{"unknown scope", `{"basic": [{"user": "u", "password": "` + testPDPPassword + `", "superUser": true, "scopes": ["all"]}]}`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParseMachineCallers([]byte(tc.raw))
			if err == nil {
				t.Fatal("accepted")
			}
			for _, secret := range []string{testCRMKey, testPDPPassword, testOpsPassword, "generated-placeholder-value"} {
				if strings.Contains(err.Error(), secret) {
					t.Fatalf("error %q reveals a credential", err)
				}
			}
		})
	}
}

func TestMachineCallersActForTheirOrganization(t *testing.T) {
	role := domain.Role{ID: 7, OrganizationGUID: "org-a"}
	pdp := &Principal{Kind: KindMachine, OrganizationGUID: "org-a"}
	if !pdp.CanManageRole(role) || !pdp.CanCreateRoleIn("org-a") || !pdp.CanInvite(role, domain.Guest) {
		t.Error("a Basic machine caller of org-a cannot act on its own organization's role")
	}
	if pdp.CanManageRole(domain.Role{ID: 8, OrganizationGUID: "org-b"}) {
		t.Error("a Basic machine caller of org-a manages a role of org-b")
	}
	crm := &Principal{Kind: KindCRM, OrganizationGUID: "org-a"}
	if crm.CanManageRole(role) || crm.CanInvite(role, domain.Guest) {
		t.Error("a CRM key passes the role rules")
	}
}
