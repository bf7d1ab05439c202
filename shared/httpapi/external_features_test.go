package httpapi_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/edu-invite/invite/shared/auth"
	"github.com/edu-invite/invite/shared/domain"
)

const (
	platformUser     = "platform"
	platformPassword = "platform-password-0123456789"
	inviteOnlyUser   = "pdp-invite-only"
)

// platformWorld is a world with two Basic machine callers: the platform
// (scopes voot, aa, lifecycle) and one with the invite scope only.
func platformWorld(t *testing.T) *world {
	w := newWorld(t)
	m, err := auth.NewMachineCallers(auth.MachineCallersConfig{Basic: []auth.BasicCallerConfig{
		{User: platformUser, Password: platformPassword, SuperUser: true,
			Scopes: []string{auth.ScopeVoot, auth.ScopeAttributeAggregation, auth.ScopeLifecycle}},
		{User: inviteOnlyUser, Password: platformPassword, OrganizationGUID: "org-a"},
	}})
	if err != nil {
		t.Fatal(err)
	}
	w.API.Authenticator.Machines = m
	return w
}

func (w *world) basic(user, method, path string) *httptest.ResponseRecorder {
	w.t.Helper()
	req := httptest.NewRequest(method, path, nil)
	req.SetBasicAuth(user, platformPassword)
	rec := httptest.NewRecorder()
	w.Server.ServeHTTP(rec, req)
	return rec
}

func TestPlatformFeatures(t *testing.T) {
	w := platformWorld(t)
	guestSub := personOf("guest").Sub
	managerSub := personOf("manager").Sub
	roleA, err := w.Store.GetRole(context.Background(), w.RoleA)
	if err != nil {
		t.Fatal(err)
	}

	// VOOT: the guest's role A as a group, the manager's as admin.
	type group struct {
		URN        string            `json:"urn"`
		Name       string            `json:"name"`
		Membership map[string]string `json:"membership"`
	}
	groups := decode[[]group](t, w.basic(platformUser, "GET", "/api/external/v1/voot/"+guestSub))
	if len(groups) != 1 || groups[0].URN != roleA.URN || groups[0].Name != "Role A" || groups[0].Membership["basic"] != "member" {
		t.Fatalf("VOOT groups of the guest: %+v", groups)
	}
	if groups := decode[[]group](t, w.basic(platformUser, "GET", "/api/external/v1/voot/"+managerSub)); len(groups) != 1 || groups[0].Membership["basic"] != "admin" {
		t.Fatalf("VOOT groups of the manager: %+v", groups)
	}
	if rec := w.basic(platformUser, "GET", "/api/external/v1/voot/urn:nobody"); rec.Code != 200 || strings.TrimSpace(rec.Body.String()) != "[]" {
		t.Fatalf("VOOT of an unknown person: %d %s", rec.Code, rec.Body.String())
	}
	if rec := w.basic(inviteOnlyUser, "GET", "/api/external/v1/voot/"+guestSub); rec.Code != http.StatusForbidden {
		t.Fatalf("VOOT by a caller without the scope: %d, want 403", rec.Code)
	}

	// Attribute aggregation: entitlements, filtered by application.
	type attribute struct {
		Name   string   `json:"name"`
		Values []string `json:"values"`
	}
	attrs := decode[[]attribute](t, w.basic(platformUser, "GET", "/api/external/v1/aa/"+guestSub+"?SPentityID=wiki"))
	if len(attrs) != 1 || attrs[0].Name != "urn:mace:dir:attribute-def:eduPersonEntitlement" || strings.Join(attrs[0].Values, " ") != roleA.URN {
		t.Fatalf("aggregated attributes: %+v", attrs)
	}
	if rec := w.basic(platformUser, "GET", "/api/external/v1/aa/"+guestSub+"?SPentityID=lms"); strings.TrimSpace(rec.Body.String()) != "[]" {
		t.Fatalf("aggregated attributes for another application: %s", rec.Body.String())
	}

	// User lifecycle: export, dry run, erasure (with the SCIM deletion).
	type lifecycle struct {
		Status string `json:"status"`
		Data   []struct {
			Name  string `json:"name"`
			Value string `json:"value"`
		} `json:"data"`
	}
	export := decode[lifecycle](t, w.basic(platformUser, "GET", "/api/external/v1/deprovision/"+guestSub))
	if export.Status != "OK" || !strings.Contains(lifecycleText(export.Data), "email=guest@example.org") ||
		!strings.Contains(lifecycleText(export.Data), "role=Role A (GUEST)") {
		t.Fatalf("export %+v", export)
	}
	before := len(w.Queue.Deliveries())
	for _, dryRun := range []string{"?dry-run=true", "/dry-run"} { // the reference's path too
		if rec := w.basic(platformUser, "DELETE", "/api/external/v1/deprovision/"+guestSub+dryRun); rec.Code != 200 ||
			!strings.Contains(rec.Body.String(), "guest@example.org") {
			t.Fatalf("dry run %s: %d %s", dryRun, rec.Code, rec.Body.String())
		}
	}
	if _, err := w.Store.GetUserBySub(context.Background(), guestSub); err != nil || len(w.Queue.Deliveries()) != before {
		t.Fatalf("a dry run changed something: %v, %d deliveries", err, len(w.Queue.Deliveries())-before)
	}
	if rec := w.basic(platformUser, "DELETE", "/api/external/v1/deprovision/"+guestSub); rec.Code != 200 {
		t.Fatalf("erasure: %d %s", rec.Code, rec.Body.String())
	}
	if _, err := w.Store.GetUserBySub(context.Background(), guestSub); !domain.IsNotFound(err) {
		t.Fatalf("the user is still there: %v", err)
	}
	if got := kindsOf(w.Queue.Deliveries()[before:]); got != "sp-a member.remove, sp-b member.remove, sp-a user.delete, sp-b user.delete" {
		t.Fatalf("erasure deliveries %q", got)
	}
	if after := decode[lifecycle](t, w.basic(platformUser, "GET", "/api/external/v1/deprovision/"+guestSub)); len(after.Data) != 0 {
		t.Fatalf("export after erasure: %+v", after)
	}
}

func lifecycleText(data []struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}) string {
	var parts []string
	for _, d := range data {
		parts = append(parts, d.Name+"="+d.Value)
	}
	return strings.Join(parts, "; ")
}
