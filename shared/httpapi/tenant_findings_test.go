package httpapi_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/edu-invite/invite/shared/domain"
	"github.com/edu-invite/invite/shared/service"
)

// A role uses only its own organization's applications and platform ones:
// another organization's application answers, on create and update, as one
// that is not in the registry, for every caller (super users included).
func TestRoleUsesNoApplicationOfAnotherOrganization(t *testing.T) {
	w := newTenantWorld(t)
	use := func(app string) string {
		return `"applicationUsages":[{"application":{"manageId":"` + app + `"}}]`
	}
	for _, tc := range []struct {
		name, caller, method, path, body string
		want                             int
	}{
		{"org-a admin creates with org-b's application", "instAdmin", "POST", "/api/v1/roles", `{"name":"X1","defaultExpiryDays":30,` + use("b-app") + `}`, 400},
		{"org-a token creates with org-b's application", "orgToken", "POST", "/api/external/v1/roles", `{"name":"X2","defaultExpiryDays":30,` + use("b-app") + `}`, 400},
		{"super user creates an org-a role with org-b's application", "super", "POST", "/api/v1/roles", `{"name":"X3","organizationGUID":"org-a","defaultExpiryDays":30,` + use("b-app") + `}`, 400},
		{"org-a admin moves role A to org-b's application", "instAdmin", "PUT", "/api/v1/roles", `{"id":{roleA},"name":"Role A","defaultExpiryDays":30,` + use("b-app") + `}`, 400},
		{"org-a token adds org-b's application to role A", "orgToken", "PUT", "/api/external/v1/roles", `{"id":{roleA},"name":"Role A","defaultExpiryDays":30,"applicationUsages":[{"application":{"manageId":"wiki"}},{"application":{"manageId":"b-app"}}]}`, 400},
		{"org-a admin creates with a platform application", "instAdmin", "POST", "/api/v1/roles", `{"name":"X4","defaultExpiryDays":30,` + use("lms") + `}`, 201},
		{"org-b's own role with its application", "super", "POST", "/api/v1/roles", `{"name":"X5","organizationGUID":"org-b","defaultExpiryDays":30,` + use("b-app") + `}`, 201},
	} {
		before := len(w.Queue.Deliveries())
		rec := w.do(tc.caller, tc.method, tc.path, tc.body)
		if rec.Code != tc.want {
			t.Errorf("%s: %d, want %d: %s", tc.name, rec.Code, tc.want, rec.Body.String())
			continue
		}
		if tc.want == 400 {
			if msg := decode[map[string]any](t, rec)["message"]; msg != `application "b-app" is not in the registry` {
				t.Errorf("%s: message %q, want the one for a missing application", tc.name, msg)
			}
			if got := len(w.Queue.Deliveries()); got != before {
				t.Errorf("%s: refused but queued %d deliveries", tc.name, got-before)
			}
		}
	}
	role, err := w.Svc.GetRole(context.Background(), root, w.RoleA)
	if err != nil {
		t.Fatal(err)
	}
	if ids := role.ManageIDs(); len(ids) != 1 || ids[0] != "wiki" {
		t.Errorf("role A's applications are %v after refused updates, want [wiki]", ids)
	}
}

// An invitation's organization is its roles', whatever the body names: a
// token of org-a naming org-b invites into org-a, and the guest lands
// there.
func TestInvitationOrganizationComesFromItsRoles(t *testing.T) {
	w := newTenantWorld(t)
	ctx := context.Background()
	for _, tc := range []struct{ caller, path, list string }{
		{"orgToken", "/api/external/v1/invitations", `"invites":["body-org@example.org"]`},
		{"machineA", "/api/external/v1/internal/invite/invitations", `"invitations":[{"email":"body-org2@example.org","internalPlaceholderIdentifier":"p"}]`},
		{"super", "/api/internal/invitations", `"invitations":[{"email":"body-org3@example.org","internalPlaceholderIdentifier":"p"}]`},
	} {
		rec := w.doAs(tc.caller, "POST", tc.path, `{"intendedAuthority":"GUEST",`+tc.list+`,"roleIdentifiers":[{roleA}],"organizationGUID":"org-b","suppressSendingEmails":true,"expiryDate":`+tenantFuture()+`}`)
		if rec.Code != http.StatusCreated {
			t.Fatalf("%s: invite: %d %s", tc.caller, rec.Code, rec.Body.String())
		}
		var res struct {
			URLs []struct {
				InvitationURL string `json:"invitationURL"`
			} `json:"recipientInvitationURLs"`
		}
		if err := json.Unmarshal(rec.Body.Bytes(), &res); err != nil || len(res.URLs) != 1 {
			t.Fatalf("%s: unexpected answer %s", tc.caller, rec.Body.String())
		}
		_, secret, _ := strings.Cut(res.URLs[0].InvitationURL, "hash=")
		inv, _, err := w.Svc.OpenInvitation(ctx, secret)
		if err != nil {
			t.Fatal(err)
		}
		if inv.OrganizationGUID != "org-a" {
			t.Errorf("%s named org-b in the body: the invitation's organization is %q, want org-a (its role's)", tc.caller, inv.OrganizationGUID)
		}
	}
	// Roles of two organizations make no one invitation.
	rec := w.do("super", "POST", "/api/v1/invitations", `{"intendedAuthority":"GUEST","invites":["two@example.org"],"roleIdentifiers":[{roleA},{roleB}],"expiryDate":`+tenantFuture()+`}`)
	if rec.Code != http.StatusBadRequest {
		t.Errorf("an invitation to roles of two organizations: %d, want 400: %s", rec.Code, rec.Body.String())
	}
}

// A caller may change an end date only where it could grant that
// authority, and nobody lengthens their own membership.
func TestEndDateClimb(t *testing.T) {
	w := newTenantWorld(t)
	ctx := context.Background()
	date := func(d time.Time) string { return fmt.Sprint(d.Unix()) }
	far := date(w.Now.AddDate(50, 0, 0))
	soon := date(w.Now.AddDate(0, 0, 3))
	for _, tc := range []struct {
		name, caller, target, end string
		want                      int
	}{
		{"a manager sets an application manager's end date", "manager", "appManager", soon, 403},
		{"a manager extends their own membership", "manager", "manager", far, 403},
		{"an inviter extends their own membership", "inviter", "inviter", far, 403},
		{"an application manager extends their own membership", "appManager", "appManager", far, 403},
		{"a manager shortens their own membership", "manager", "manager", soon, 200},
		{"a manager sets a guest's end date", "manager", "guest", far, 200},
		{"an institution admin sets an application manager's end date", "instAdmin", "appManager", soon, 200},
		{"an org-b caller sets an org-a guest's end date", "orgTokenB", "guest", far, 404},
	} {
		before, err := w.Store.GetUserRoleByID(ctx, w.UserRoles[tc.target].ID)
		if err != nil {
			t.Fatal(err)
		}
		rec := w.doAs(tc.caller, "PUT", "/api/v1/user_roles", `{"userRoleId":{userRole:`+tc.target+`},"endDate":`+tc.end+`}`)
		if rec.Code != tc.want {
			t.Errorf("%s: %d, want %d: %s", tc.name, rec.Code, tc.want, rec.Body.String())
		}
		after, err := w.Store.GetUserRoleByID(ctx, w.UserRoles[tc.target].ID)
		if err != nil {
			t.Fatal(err)
		}
		if tc.want != 200 && !sameDate(before.EndDate, after.EndDate) {
			t.Errorf("%s: refused, but the end date changed from %v to %v", tc.name, before.EndDate, after.EndDate)
		}
	}
}

func sameDate(a, b *time.Time) bool {
	return (a == nil && b == nil) || (a != nil && b != nil && a.Equal(*b))
}

// Organization-bound machine callers see and change only their own
// organization: VOOT, attribute aggregation, the profile, the lifecycle
// (export and erasure), the roles summary and the CRM profile search answer
// for a person of organization B as for an unknown one, and erasure leaves
// B's person alone.
func TestMachineCallerStaysInItsOrganization(t *testing.T) {
	w := newTenantWorld(t)
	ctx := context.Background()
	bSub, nobody := w.foreign["subject"], w.missing["subject"]
	for _, path := range []string{"/api/external/v1/voot/%s", "/api/external/v1/aa/%s", "/api/external/v1/deprovision/%s",
		"/api/external/v1/profile?collabPersonId=%s", "/api/external/v1/deprovision/%s/dry-run"} {
		method := "GET"
		if strings.HasSuffix(path, "dry-run") {
			method = "DELETE"
		}
		b := w.doAs("machineA", method, fmt.Sprintf(path, bSub), "")
		m := w.doAs("machineA", method, fmt.Sprintf(path, nobody), "")
		if normalized(b, bSub) != normalized(m, nobody) || strings.Contains(b.Body.String(), "Role B") {
			t.Errorf("%s for org-b's person: %d %s; for an unknown one: %d %s", path, b.Code, b.Body.String(), m.Code, m.Body.String())
		}
	}
	// Erasure of B's person by A's machine caller leaves them and their role.
	bUser, err := w.Store.GetUserBySub(ctx, bSub)
	if err != nil {
		t.Fatal(err)
	}
	if rec := w.doAs("machineA", "DELETE", "/api/external/v1/deprovision/"+bSub, ""); rec.Code != http.StatusOK {
		t.Errorf("erasure answered %d: %s", rec.Code, rec.Body.String())
	}
	if _, err := w.Store.GetUser(ctx, bUser.ID); err != nil {
		t.Errorf("org-a's machine caller erased org-b's person: %v", err)
	}
	urs, err := w.Store.ListUserRolesOfUser(ctx, bUser.ID)
	if err != nil || len(urs) != 1 {
		t.Errorf("org-b's person has %d memberships after org-a's erasure (err %v), want 1", len(urs), err)
	}
	// A person of both organizations loses only A's membership.
	both := w.inviteAndAccept("bguest", w.RoleA, domain.Guest)
	if rec := w.doAs("machineA", "DELETE", "/api/external/v1/deprovision/"+bSub, ""); rec.Code != http.StatusOK {
		t.Errorf("erasure answered %d: %s", rec.Code, rec.Body.String())
	}
	urs, err = w.Store.ListUserRolesOfUser(ctx, both.User.ID)
	if err != nil || len(urs) != 1 || urs[0].RoleID != w.RoleB {
		t.Errorf("after org-a's erasure the person of both holds %v (err %v), want only role B", urs, err)
	}
	// The roles summary lists A's roles only.
	rec := w.doAs("machineA", "GET", "/api/external/v1/internal/invite/roles-summary", "")
	if rec.Code != http.StatusOK || strings.Contains(rec.Body.String(), "Role B") || !strings.Contains(rec.Body.String(), "Role A") {
		t.Errorf("roles summary for org-a's machine caller: %d %s", rec.Code, rec.Body.String())
	}
	// A super user's erasure still removes the person whole.
	if _, err := w.Svc.DeprovisionUser(ctx, root, bSub, true, false); err != nil {
		t.Fatal(err)
	}
	if _, err := w.Store.GetUser(ctx, bUser.ID); !domain.IsNotFound(err) {
		t.Errorf("a super user's erasure left the person: %v", err)
	}
}

// An invitation link lives at most MaxInvitationValidityDays.
func TestInvitationExpiryIsCapped(t *testing.T) {
	w := newWorld(t)
	for _, tc := range []struct {
		days int
		want int
	}{{service.MaxInvitationValidityDays - 1, 201}, {service.MaxInvitationValidityDays + 1, 400}, {3650, 400}} {
		end := w.Now.AddDate(0, 0, tc.days).Unix()
		rec := w.do("orgToken", "POST", "/api/external/v1/invitations",
			fmt.Sprintf(`{"intendedAuthority":"GUEST","invites":["cap%d@example.org"],"roleIdentifiers":[{roleA}],"suppressSendingEmails":true,"expiryDate":%d}`, tc.days, end))
		if rec.Code != tc.want {
			t.Errorf("expiry %d days ahead: %d, want %d: %s", tc.days, rec.Code, tc.want, rec.Body.String())
		}
	}
}
