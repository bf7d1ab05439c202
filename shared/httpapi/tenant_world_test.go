package httpapi_test

import (
	"context"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/edu-invite/invite/shared/auth"
	"github.com/edu-invite/invite/shared/domain"
	"github.com/edu-invite/invite/shared/service"
)

// A tenant world is a world (org-a with role A, org-b with role B) where
// organization B holds one object of every kind an organization has: a
// guest and a manager of role B, an open invitation to it, an API token, an
// application and a SCIM connection. Organization A also has a machine
// caller with every platform scope.
type tenantWorld struct {
	*world
	// objects by kind, for organization A ("own"), organization B
	// ("foreign") and nobody ("missing").
	own, foreign, missing map[string]string
}

// Machine callers' credentials, by caller name.
const (
	machineAUser     = "machine-a"
	machineAPassword = "machine-a-password-0123456789"
	orgBTokenValue   = "org-b-token-0123456789abcdef0123456789abcdef"
	tenantCRMKey     = "crm-key-0123456789abcdef0123456789"
)

// tenantCallers are the kinds of caller of organization A: a person in
// each authority, the organization's API token and its machine caller.
var tenantCallers = []string{"instAdmin", "orgToken", "machineA", "appManager", "manager", "inviter", "guest"}

func newTenantWorld(t testing.TB) *tenantWorld {
	t.Helper()
	w := newWorld(t)
	ctx := context.Background()
	machines, err := auth.NewMachineCallers(auth.MachineCallersConfig{CRM: []auth.CRMCallerConfig{{Name: "CRM", APIKey: tenantCRMKey}}, Basic: []auth.BasicCallerConfig{{
		User: machineAUser, Password: machineAPassword, OrganizationGUID: "org-a",
		Scopes: []string{auth.ScopeInvite, auth.ScopeCRM, auth.ScopeVoot, auth.ScopeAttributeAggregation, auth.ScopeLifecycle, auth.ScopeProfile}}}})
	if err != nil {
		t.Fatal(err)
	}
	w.API.Authenticator.Machines = machines

	bGuest := w.inviteAndAccept("bguest", w.RoleB, domain.Guest)
	w.inviteAndAccept("bmanager", w.RoleB, domain.Manager)
	invB, _ := w.invite("openb@example.org", w.RoleB, domain.Guest)
	if err := w.Store.CreateAPIToken(ctx, domain.APIToken{ID: 3, HashedValue: auth.HashToken(orgBTokenValue),
		OrganizationGUID: "org-b", Description: "org-b", CreatedAt: w.Now}); err != nil {
		t.Fatal(err)
	}
	var conn service.ConnectionInput
	conn.ID, conn.BaseURL, conn.OrganizationGUID, conn.Auth.Method, conn.Secret = "sp-borg", "https://borg.example.org/scim", "org-b", "bearer", "b-secret-value"
	if _, err := w.Svc.CreateConnection(ctx, root, conn); err != nil {
		t.Fatal(err)
	}
	if _, err := w.Svc.CreateApplication(ctx, root, service.ApplicationView{ManageID: "b-app", ManageType: "SAML20_SP",
		OrganizationGUID: "org-b", LandingPage: "https://b-app.example.org", Provisionings: []string{"sp-borg"}}); err != nil {
		t.Fatal(err)
	}
	sub := func(name string) string { return personOf(name).Sub }
	return &tenantWorld{world: w,
		own: map[string]string{"role": itoa(w.RoleA), "user": itoa(w.Users["guest"].ID), "userRole": itoa(w.UserRoles["guest"].ID),
			"invitation": itoa(w.OpenInvitationA), "token": "2", "connection": "sp-a", "application": "wiki",
			"subject": sub("guest"), "org": "org-a"},
		foreign: map[string]string{"role": itoa(w.RoleB), "user": itoa(bGuest.User.ID), "userRole": itoa(bGuest.UserRoles[0].ID),
			"invitation": itoa(invB), "token": "3", "connection": "sp-borg", "application": "b-app",
			"subject": sub("bguest"), "org": "org-b"},
		missing: map[string]string{"role": "999999", "user": "999998", "userRole": "999997", "invitation": "999996", "token": "999995",
			"connection": "sp-missing", "application": "no-such-app", "subject": sub("nobody"), "org": "org-missing"},
	}
}

// doAs sends a request as one of the tenant callers (or a world caller).
func (w *tenantWorld) doAs(caller, method, path, body string) *httptest.ResponseRecorder {
	w.t.Helper()
	if caller != "machineA" && caller != "orgTokenB" && caller != "crmKey" {
		return w.do(caller, method, path, body)
	}
	req := httptest.NewRequest(method, w.expand(path), strings.NewReader(w.expand(body)))
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	switch caller {
	case "orgTokenB":
		req.Header.Set(auth.APITokenHeader, orgBTokenValue)
	case "crmKey":
		req.Header.Set(auth.CRMKeyHeader, tenantCRMKey)
	default:
		req.SetBasicAuth(machineAUser, machineAPassword)
	}
	rec := httptest.NewRecorder()
	w.Server.ServeHTTP(rec, req)
	return rec
}

// tenantFuture is an expiry date within the invitation cap, as JSON epoch
// seconds.
func tenantFuture() string { return itoa(worldNow.Add(30 * 24 * time.Hour).Unix()) }
