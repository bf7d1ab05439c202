package httpapi_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/edu-invite/invite/shared/auth"
	"github.com/edu-invite/invite/shared/domain"
	"github.com/edu-invite/invite/shared/service"
)

// Test-only machine callers of the CRM tests.
const (
	crmKey      = "crm-test-key-0123456789abcdef"
	pdpUser     = "pdp"
	pdpPassword = "pdp-test-password-0123456789"
	crmOrg      = "org-a" // the organization of wiki and of the Basic caller
)

// crmWorld is a world with machine callers and two CRM roles of
// organisation org-a: X (CRM role "crm-x", application wiki with SCIM
// targets sp-a and sp-b) and Y ("crm-y", application lms without SCIM).
type crmWorld struct {
	*world
	RoleX, RoleY int64
}

func newCRMWorld(t *testing.T) *crmWorld {
	t.Helper()
	w := &crmWorld{world: newWorld(t)}
	m, err := auth.NewMachineCallers(auth.MachineCallersConfig{
		CRM:   []auth.CRMCallerConfig{{Name: "SURF CRM", APIKey: crmKey}},
		Basic: []auth.BasicCallerConfig{{User: pdpUser, Password: pdpPassword, OrganizationGUID: "org-a", Scopes: []string{auth.ScopeInvite, auth.ScopeCRM}}},
	})
	if err != nil {
		t.Fatal(err)
	}
	w.API.Authenticator.Machines = m
	w.RoleX = w.crmRole("CRM Role X", "wiki", "crm-x", "Beheerder", "BVW")
	w.RoleY = w.crmRole("CRM Role Y", "lms", "crm-y", "Verantwoordelijke", "CONVER")
	return w
}

func (w *crmWorld) crmRole(name, app, crmID, crmName, abbrev string) int64 {
	w.t.Helper()
	ctx := context.Background()
	r, err := w.Store.GetRole(ctx, w.createRole(name, crmOrg, app))
	if err != nil {
		w.t.Fatal(err)
	}
	r.CRMRoleID, r.CRMRoleName, r.CRMRoleAbbrevation = crmID, crmName, abbrev
	if err := w.Store.UpdateRole(ctx, r, nil); err != nil {
		w.t.Fatal(err)
	}
	return r.ID
}

// crm sends a request with the CRM key ("crm"), Basic ("pdp"), or as one
// of the world's callers.
func (w *crmWorld) crm(caller, method, path, body string) *httptest.ResponseRecorder {
	w.t.Helper()
	if caller != "crm" && caller != "pdp" {
		return w.do(caller, method, path, body)
	}
	req := httptest.NewRequest(method, path, strings.NewReader(body))
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	if caller == "crm" {
		req.Header.Set(auth.CRMKeyHeader, crmKey)
	} else {
		req.SetBasicAuth(pdpUser, pdpPassword)
	}
	rec := httptest.NewRecorder()
	w.Server.ServeHTTP(rec, req)
	return rec
}

func crmProfileBody(contactID, uid string, suppress bool, roleIDs ...string) string {
	var roles []string
	for _, r := range roleIDs {
		roles = append(roles, fmt.Sprintf(`{"roleId":%q,"sabCode":"S","name":"N"}`, r))
	}
	return fmt.Sprintf(`{"uid":%q,"schacHomeOrganisation":"example.com","suppressInvitation":%v,"contactId":%q,
	  "firstname":"Jane","middlename":"van","surname":"Doe","email":"jdoe@example.com",
	  "organisation":{"organisationId":%q,"abbrev":"CO","name":"CRM Org"},"roles":[%s]}`,
		uid, suppress, contactID, crmOrg, strings.Join(roles, ","))
}

func wantText(t *testing.T, rec *httptest.ResponseRecorder, want string) {
	t.Helper()
	if rec.Code != http.StatusOK || rec.Body.String() != want {
		t.Fatalf("status %d body %q, want 200 %q", rec.Code, rec.Body.String(), want)
	}
}

func deliveryKinds(ds []domain.Delivery) []string {
	var out []string
	for _, d := range ds {
		out = append(out, fmt.Sprintf("%s %s user=%d role=%d", d.SPID, d.Kind, d.UserID, d.RoleID))
	}
	return out
}

const jdoeSub = "urn:collab:person:example.com:jdoe"

func TestCRMProfileProvisionsAndSyncsMemberships(t *testing.T) {
	w := newCRMWorld(t)
	ctx := context.Background()
	before := len(w.Queue.Deliveries())

	// CRM role ids match case-insensitively; unknown CRM roles are ignored.
	wantText(t, w.crm("crm", "POST", "/crm/profile", crmProfileBody("c-1", "jdoe", true, "CRM-X", "unknown")), "created")
	u, err := w.Store.GetUserBySub(ctx, jdoeSub)
	if err != nil {
		t.Fatal(err)
	}
	if u.CRMContactID != "c-1" || u.GivenName != "Jane" || u.FamilyName != "van Doe" || u.MiddleName != "van" || u.UID != "jdoe" || u.Email != "jdoe@example.com" {
		t.Errorf("user %+v", u)
	}
	urs, _ := w.Store.ListUserRolesOfUser(ctx, u.ID)
	if len(urs) != 1 || urs[0].RoleID != w.RoleX || urs[0].Authority != domain.Guest || urs[0].Inviter != "SURF CRM" {
		t.Fatalf("memberships %+v", urs)
	}
	got := deliveryKinds(w.Queue.Deliveries()[before:])
	want := []string{
		fmt.Sprintf("sp-a user.create user=%d role=0", u.ID), fmt.Sprintf("sp-a member.add user=%d role=%d", u.ID, w.RoleX),
		fmt.Sprintf("sp-b user.create user=%d role=0", u.ID), fmt.Sprintf("sp-b member.add user=%d role=%d", u.ID, w.RoleX)}
	if !slices.Equal(got, want) {
		t.Errorf("deliveries %v, want %v", got, want)
	}
	all, err := w.Store.ListAuditEntriesOfRole(ctx, w.RoleX)
	audit := membershipEntries(all)
	if err != nil || len(audit) != 1 || audit[0].Action != domain.AuditAdd || audit[0].CreatedBy != "SURF CRM" || audit[0].UserID != u.ID {
		t.Fatalf("audit %+v %v", audit, err)
	}

	// The same call again changes nothing.
	before = len(w.Queue.Deliveries())
	wantText(t, w.crm("crm", "POST", "/crm/profile", crmProfileBody("c-1", "jdoe", true, "crm-x")), "updated")
	if n := len(w.Queue.Deliveries()) - before; n != 0 {
		t.Errorf("a repeated call queued %d deliveries", n)
	}

	// Role Y added, role X withdrawn: X is removed at its SPs, Y (no SCIM) added.
	before = len(w.Queue.Deliveries())
	wantText(t, w.crm("crm", "POST", "/crm/profile", crmProfileBody("c-1", "jdoe", true, "crm-y")), "updated")
	urs, _ = w.Store.ListUserRolesOfUser(ctx, u.ID)
	if len(urs) != 1 || urs[0].RoleID != w.RoleY {
		t.Fatalf("memberships after the change %+v", urs)
	}
	got = deliveryKinds(w.Queue.Deliveries()[before:])
	want = []string{fmt.Sprintf("sp-a member.remove user=%d role=%d", u.ID, w.RoleX), fmt.Sprintf("sp-b member.remove user=%d role=%d", u.ID, w.RoleX)}
	if !slices.Equal(got, want) {
		t.Errorf("deliveries %v, want %v", got, want)
	}
	all, _ = w.Store.ListAuditEntriesOfRole(ctx, w.RoleX)
	audit = membershipEntries(all)
	if len(audit) != 2 || audit[0].Action == audit[1].Action {
		t.Errorf("audit of X after removal %+v", audit)
	}

	// No CRM roles: the CRM memberships go, the user stays.
	wantText(t, w.crm("crm", "POST", "/crm/profile", crmProfileBody("c-1", "jdoe", true)), "updated")
	urs, _ = w.Store.ListUserRolesOfUser(ctx, u.ID)
	if len(urs) != 0 {
		t.Errorf("memberships %+v", urs)
	}
	if _, err := w.Store.GetUser(ctx, u.ID); err != nil {
		t.Errorf("user deleted: %v", err)
	}
}

func TestCRMProfileKeepsNonCRMMemberships(t *testing.T) {
	w := newCRMWorld(t)
	ctx := context.Background()
	// The guest of role A is linked to CRM contact c-9 by sub.
	guest := w.Users["guest"]
	uid := strings.TrimPrefix(guest.Sub, "urn:collab:person:example.org:")
	body := strings.Replace(crmProfileBody("c-9", uid, true, "crm-x"), `"example.com"`, `"example.org"`, 1)
	wantText(t, w.crm("crm", "POST", "/crm/profile", body), "updated")
	urs, _ := w.Store.ListUserRolesOfUser(ctx, guest.ID)
	roles := []int64{}
	for _, ur := range urs {
		roles = append(roles, ur.RoleID)
	}
	slices.Sort(roles)
	if !slices.Equal(roles, []int64{w.RoleA, w.RoleX}) {
		t.Fatalf("roles %v, want A and X", roles)
	}
	u, _ := w.Store.GetUser(ctx, guest.ID)
	if u.CRMContactID != "c-9" {
		t.Errorf("crmContactId %q", u.CRMContactID)
	}
	// Removing all CRM roles keeps role A.
	wantText(t, w.crm("crm", "POST", "/crm/api/v1/invite/remove", `{"org_id":"`+crmOrg+`","guid":"c-9"}`), "removed")
	urs, _ = w.Store.ListUserRolesOfUser(ctx, guest.ID)
	if len(urs) != 1 || urs[0].RoleID != w.RoleA {
		t.Errorf("memberships after C5 %+v", urs)
	}
	// Unknown contacts and organisations answer the same and change nothing.
	wantText(t, w.crm("crm", "POST", "/crm/api/v1/invite/remove", `{"org_id":"`+crmOrg+`","guid":"nope"}`), "removed")
	wantText(t, w.crm("crm", "POST", "/crm/api/v1/invite/remove", `{"org_id":"nope","guid":"nope"}`), "removed")
}

func TestCRMProfileInvitesAndDeletes(t *testing.T) {
	w := newCRMWorld(t)
	ctx := context.Background()
	before := len(w.Queue.Deliveries())
	wantText(t, w.crm("crm", "POST", "/crm/profile", crmProfileBody("c-2", "", false, "crm-x")), "created")
	invs, err := w.Store.ListCRMInvitations(ctx, crmOrg, "c-2")
	if err != nil || len(invs) != 1 {
		t.Fatalf("invitations %+v %v", invs, err)
	}
	first := invs[0]
	if first.Status != domain.InvitationOpen || first.Email != "jdoe@example.com" || first.RemoteAPIUser != "SURF CRM" ||
		!slices.Equal(first.RoleIDs, []int64{w.RoleX}) || first.IntendedAuthority != domain.Guest || !first.EnforceEmailEquality ||
		!first.ExpiryDate.Equal(w.Now.Add(14*24*time.Hour)) || first.CRMOrganisationID != crmOrg {
		t.Errorf("invitation %+v", first)
	}
	if _, err := w.Store.GetUserBySub(ctx, jdoeSub); !domain.IsNotFound(err) {
		t.Errorf("a user was created without provisioning: %v", err)
	}
	if n := len(w.Queue.Deliveries()) - before; n != 0 {
		t.Errorf("an invitation queued %d deliveries", n)
	}

	// Repeating keeps the invitation; other roles replace it.
	wantText(t, w.crm("crm", "POST", "/crm/profile", crmProfileBody("c-2", "", false, "crm-x")), "updated")
	invs, _ = w.Store.ListCRMInvitations(ctx, crmOrg, "c-2")
	if len(invs) != 1 || invs[0].ID != first.ID {
		t.Fatalf("repeated call: %+v", invs)
	}
	wantText(t, w.crm("crm", "POST", "/crm/profile", crmProfileBody("c-2", "", false, "crm-y")), "created")
	invs, _ = w.Store.ListCRMInvitations(ctx, crmOrg, "c-2")
	if len(invs) != 1 || invs[0].ID == first.ID || !slices.Equal(invs[0].RoleIDs, []int64{w.RoleY}) {
		t.Fatalf("changed roles: %+v", invs)
	}
	if _, err := w.Store.GetInvitation(ctx, first.ID); !domain.IsNotFound(err) {
		t.Errorf("the replaced invitation still exists: %v", err)
	}

	wantText(t, w.crm("crm", "DELETE", "/crm/profile", crmProfileBody("c-2", "", false)), "deleted")
	if invs, _ = w.Store.ListCRMInvitations(ctx, crmOrg, "c-2"); len(invs) != 0 {
		t.Errorf("invitations after C2: %+v", invs)
	}
}

func TestCRMDeleteProfileDeletesTheUserEverywhere(t *testing.T) {
	w := newCRMWorld(t)
	ctx := context.Background()
	wantText(t, w.crm("crm", "POST", "/crm/profile", crmProfileBody("c-1", "jdoe", true, "crm-x")), "created")
	u, _ := w.Store.GetUserBySub(ctx, jdoeSub)
	// The user was created at sp-a (the provisioner would have linked it);
	// at sp-b its creation may still be on its way, so it is deleted at both.
	if err := w.Store.PutLink(ctx, domain.SPLink{Kind: domain.ResourceUser, LocalID: u.ID, SPID: "sp-a", RemoteID: "remote-1", Status: domain.StatusProvisioned, UpdatedAt: w.Now}); err != nil {
		t.Fatal(err)
	}
	before := len(w.Queue.Deliveries())
	wantText(t, w.crm("crm", "DELETE", "/crm/profile", crmProfileBody("c-1", "jdoe", true)), "deleted")
	if _, err := w.Store.GetUser(ctx, u.ID); !domain.IsNotFound(err) {
		t.Errorf("user still there: %v", err)
	}
	if _, err := w.Store.GetUserBySub(ctx, jdoeSub); !domain.IsNotFound(err) {
		t.Errorf("sub still reserved: %v", err)
	}
	if _, err := w.Store.GetCRMContact(ctx, crmOrg, "c-1"); !domain.IsNotFound(err) {
		t.Errorf("contact link still there: %v", err)
	}
	got := deliveryKinds(w.Queue.Deliveries()[before:])
	want := []string{fmt.Sprintf("sp-a member.remove user=%d role=%d", u.ID, w.RoleX), fmt.Sprintf("sp-b member.remove user=%d role=%d", u.ID, w.RoleX),
		fmt.Sprintf("sp-a user.delete user=%d role=0", u.ID), fmt.Sprintf("sp-b user.delete user=%d role=0", u.ID)}
	if !slices.Equal(got, want) {
		t.Errorf("deliveries %v, want %v", got, want)
	}
}

func TestCRMAcceptedInvitationPairsTheContact(t *testing.T) {
	w := newCRMWorld(t)
	ctx := context.Background()
	wantText(t, w.crm("crm", "POST", "/crm/profile", crmProfileBody("c-3", "", true, "crm-x")), "created")
	invs, _ := w.Store.ListCRMInvitations(ctx, crmOrg, "c-3")
	if len(invs) != 1 {
		t.Fatalf("invitations %+v", invs)
	}
	// The link is only in the (suppressed) e-mail; renew it to learn a secret.
	inv := invs[0]
	secret := "crm-test-secret"
	inv.HashDigest = service.HashDigest(secret)
	if err := w.Store.RenewCRMInvitation(ctx, inv); err != nil {
		t.Fatal(err)
	}
	person := personOf("jdoe")
	person.Email = "jdoe@example.com"
	if _, err := w.Svc.Accept(ctx, &auth.Principal{Kind: auth.KindPerson, Person: &person}, secret, inv.ID); err != nil {
		t.Fatal(err)
	}
	c, err := w.Store.GetCRMContact(ctx, crmOrg, "c-3")
	if err != nil {
		t.Fatal(err)
	}
	u, _ := w.Store.GetUser(ctx, c.UserID)
	if u.Sub != person.Sub || u.CRMContactID != "c-3" {
		t.Errorf("contact linked to %+v", u)
	}
	entries := decode[map[string]map[string]any](t, w.crm("crm", "GET", "/crm/api/v1/profiles", `{"org_guid":"`+crmOrg+`"}`))
	if entries["c-3"]["status"] != "Paired" {
		t.Errorf("entries %v", entries)
	}
}

func TestCRMSendResend(t *testing.T) {
	w := newCRMWorld(t)
	ctx := context.Background()
	send := func(org, roles string) *httptest.ResponseRecorder {
		return w.crm("crm", "POST", "/crm/api/v1/invite/send", `{"org_id":"`+org+`","guid":"c-4","email":"dpo@example.org","roles":[`+roles+`]}`)
	}
	// The organisation is known once the CRM sent a profile of it.
	if rec := send(crmOrg, `{"roleId":"crm-x"}`); rec.Code != http.StatusNotFound {
		t.Fatalf("unknown organisation: %d %s", rec.Code, rec.Body)
	}
	wantText(t, w.crm("crm", "POST", "/crm/profile", crmProfileBody("c-1", "jdoe", true)), "created")
	if rec := send(crmOrg, ``); rec.Code != http.StatusBadRequest || decode[map[string]any](t, rec)["exception"] != "InvalidInputException" {
		t.Fatalf("no roles: %d %s", rec.Code, rec.Body)
	}
	if invs, _ := w.Store.ListCRMInvitations(ctx, crmOrg, "c-4"); len(invs) != 0 {
		t.Fatalf("refused request made invitations %+v", invs)
	}
	wantText(t, send(crmOrg, `{"roleId":"crm-x"}`), "send")
	wantText(t, send(crmOrg, `{"roleId":"crm-x"}`), "send")
	invs, _ := w.Store.ListCRMInvitations(ctx, crmOrg, "c-4")
	if len(invs) != 1 || invs[0].Email != "dpo@example.org" {
		t.Fatalf("invitations %+v", invs)
	}
	old := invs[0]

	w.Now = w.Now.Add(20 * 24 * time.Hour) // expired
	rec := w.crm("crm", "POST", "/crm/api/v1/invite/resend", `{"org_id":"`+crmOrg+`","guid":"c-4"}`)
	body := decode[map[string]any](t, rec)
	if rec.Code != http.StatusOK || body["status"] != float64(200) || body["key"] != "invitation_resent" || body["timestamp"] == nil || body["message"] == nil {
		t.Fatalf("resend: %d %v", rec.Code, body)
	}
	renewed, _ := w.Store.GetInvitation(ctx, old.ID)
	if !renewed.ExpiryDate.Equal(w.Now.Add(14*24*time.Hour)) || renewed.HashDigest == old.HashDigest || renewed.Version != old.Version+1 {
		t.Errorf("renewed %+v", renewed)
	}
	rec = w.crm("crm", "POST", "/crm/api/v1/invite/resend", `{"org_id":"`+crmOrg+`","guid":"nobody"}`)
	body = decode[map[string]any](t, rec)
	if rec.Code != http.StatusNotFound || body["status"] != float64(404) || body["key"] != "invitation_not_found" {
		t.Fatalf("resend of nothing: %d %v", rec.Code, body)
	}
}

func TestCRMOrganisationUsers(t *testing.T) {
	w := newCRMWorld(t)
	wantText(t, w.crm("crm", "POST", "/crm/profile", crmProfileBody("c-1", "jdoe", true, "crm-x")), "created")
	wantText(t, w.crm("crm", "POST", "/crm/profile", strings.Replace(crmProfileBody("c-2", "", false, "crm-x"), "jdoe@example.com", "other@example.com", 1)), "created")

	lookup := func(body, query string) map[string]map[string]any {
		rec := w.crm("crm", "GET", "/crm/api/v1/profiles"+query, body)
		if rec.Code != http.StatusOK {
			t.Fatalf("lookup: %d %s", rec.Code, rec.Body)
		}
		return decode[map[string]map[string]any](t, rec)
	}
	all := lookup(`{"org_guid":"`+crmOrg+`"}`, "")
	if len(all) != 2 {
		t.Fatalf("entries %v", all)
	}
	paired := all["c-1"]
	link, _ := paired["link"].(map[string]any)
	org, _ := paired["organisation"].(map[string]any)
	if paired["status"] != "Paired" || paired["status_code"] != "paired" || link["uid"] != "jdoe" || link["idp"] != "example.com" ||
		paired["email"] != "jdoe@example.com" || paired["guid"] != "c-1" || org["guid"] != crmOrg || org["name"] != "CRM Org" {
		t.Errorf("paired entry %v", paired)
	}
	if e := all["c-2"]; e["status"] != "In process" || e["status_code"] != "in_process" || e["email"] != "other@example.com" {
		t.Errorf("invited entry %v", e)
	}
	if got := lookup(`{"org_guid":"`+crmOrg+`","connected":true}`, ""); len(got) != 1 || got["c-1"] == nil {
		t.Errorf("connected only: %v", got)
	}
	w.Now = w.Now.Add(15 * 24 * time.Hour)
	if got := lookup("", "?org_guid="+crmOrg+"&connected=false"); len(got) != 1 || got["c-2"]["status_code"] != "not_paired" {
		t.Errorf("invited only, expired: %v", got)
	}
	if got := lookup(`{"org_guid":"nope"}`, ""); len(got) != 0 {
		t.Errorf("unknown organisation: %v", got)
	}
}

func TestCRMProfileSearch(t *testing.T) {
	w := newCRMWorld(t)
	wantText(t, w.crm("crm", "POST", "/crm/profile", crmProfileBody("c-1", "jdoe", true, "crm-x", "crm-y")), "created")

	search := func(caller, path string) map[string]any {
		rec := w.crm(caller, "GET", path, "")
		if rec.Code != http.StatusOK {
			t.Fatalf("%s %s: %d %s", caller, path, rec.Code, rec.Body)
		}
		return decode[map[string]any](t, rec)
	}
	for _, tc := range []struct{ caller, path string }{
		{"crm", "/api/profile?uid=jdoe&idp=example.com"},
		{"pdp", "/api/external/v1/invite/crm/profile?uid=jdoe&idp=example.com"},
		{"crm", "/api/profile?guid=" + crmOrg + "&role=Beheerder"},
		{"pdp", "/api/external/v1/invite/crm/profile?guid=" + crmOrg},
	} {
		res := search(tc.caller, tc.path)
		profiles, _ := res["profiles"].([]any)
		if res["code"] != float64(0) || res["message"] != "OK" || len(profiles) != 1 {
			t.Fatalf("%s: %v", tc.path, res)
		}
		p := profiles[0].(map[string]any)
		org, _ := p["organisation"].(map[string]any)
		auths, _ := p["authorisations"].([]any)
		if p["uid"] != "jdoe" || p["idp"] != "example.com" || p["guid"] != "c-1" || org["guid"] != crmOrg || len(auths) != 2 {
			t.Fatalf("%s: profile %v", tc.path, p)
		}
		first := auths[0].(map[string]any)
		if first["short"] != "BVW" || first["role"] != "Beheerder" || first["roleId"] != "crm-x" {
			t.Errorf("%s: authorisation %v", tc.path, first)
		}
	}
	for _, path := range []string{"/api/profile?uid=nope&idp=example.com", "/api/profile?guid=" + crmOrg + "&role=nope", "/api/profile?guid=nope&role=Beheerder"} {
		res := search("crm", path)
		if res["code"] != float64(50) || len(res["profiles"].([]any)) != 0 {
			t.Errorf("%s: %v", path, res)
		}
	}
	if rec := w.crm("crm", "GET", "/api/profile?uid=jdoe", ""); rec.Code != http.StatusBadRequest {
		t.Errorf("uid without idp: %d", rec.Code)
	}
	// Basic callers reach the CRM profile search only on the machine path.
	if rec := w.crm("pdp", "GET", "/api/profile?uid=jdoe&idp=example.com", ""); rec.Code != http.StatusForbidden {
		t.Errorf("Basic on /api/profile: %d", rec.Code)
	}
}

func TestCRMMachineCredentialsStayOnTheirPaths(t *testing.T) {
	w := newCRMWorld(t)
	for _, tc := range []struct {
		name, caller, method, path string
		want                       int
	}{
		{"CRM key on roles", "crm", "GET", "/api/v1/roles", http.StatusForbidden},
		{"CRM key on tokens", "crm", "GET", "/api/v1/tokens", http.StatusForbidden},
		{"CRM key on the internal invite API", "crm", "POST", "/api/external/v1/internal/invite/invitations", http.StatusForbidden},
		{"Basic on C1", "pdp", "POST", "/crm/profile", http.StatusForbidden},
		{"Basic on the public invitations API", "pdp", "POST", "/api/v1/invitations", http.StatusForbidden},
	} {
		rec := w.crm(tc.caller, tc.method, tc.path, `{}`)
		if rec.Code != tc.want {
			t.Errorf("%s: %d, want %d: %s", tc.name, rec.Code, tc.want, rec.Body)
		}
	}
	req := httptest.NewRequest("POST", "/crm/profile", strings.NewReader(`{}`))
	req.Header.Set(auth.CRMKeyHeader, "crm-wrong-key-0123456789")
	rec := httptest.NewRecorder()
	w.Server.ServeHTTP(rec, req)
	if rec.Code != http.StatusUnauthorized || strings.Contains(rec.Body.String(), "crm-wrong-key") {
		t.Errorf("wrong key: %d %s", rec.Code, rec.Body)
	}
}

func TestCRMProfileValidationChangesNothing(t *testing.T) {
	w := newCRMWorld(t)
	ctx := context.Background()
	for _, tc := range []struct{ name, body string }{
		{"no organisation", `{"contactId":"c-1","email":"a@example.org","roles":[]}`},
		{"no contact", strings.Replace(crmProfileBody("", "", false, "crm-x"), `"contactId":""`, `"contactId":" "`, 1)},
		{"bad e-mail", strings.Replace(crmProfileBody("c-1", "", false, "crm-x"), "jdoe@example.com", "not-an-address", 1)},
		{"role without id", crmProfileBody("c-1", "jdoe", true, "")},
		{"not JSON", `{"contactId":`},
	} {
		before := len(w.Queue.Deliveries())
		rec := w.crm("crm", "POST", "/crm/profile", tc.body)
		if rec.Code != http.StatusBadRequest {
			t.Errorf("%s: %d %s", tc.name, rec.Code, rec.Body)
			continue
		}
		if body := decode[map[string]any](t, rec); body["path"] != "/crm/profile" || body["status"] != float64(400) {
			t.Errorf("%s: error body %v", tc.name, body)
		}
		if len(w.Queue.Deliveries()) != before {
			t.Errorf("%s queued deliveries", tc.name)
		}
	}
	if _, err := w.Store.GetCRMOrganisation(ctx, crmOrg); !domain.IsNotFound(err) {
		t.Errorf("refused requests stored the organisation: %v", err)
	}
	if _, err := w.Store.GetUserBySub(ctx, jdoeSub); !domain.IsNotFound(err) {
		t.Errorf("refused requests created a user: %v", err)
	}
}

// A Basic machine caller acts for its organisation on the internal invite
// API, like an organization API token.
func TestBasicMachineCallerUsesTheInternalInviteAPI(t *testing.T) {
	w := newCRMWorld(t)
	invite := func(role int64) *httptest.ResponseRecorder {
		return w.crm("pdp", "POST", "/api/external/v1/internal/invite/invitations", fmt.Sprintf(
			`{"intendedAuthority":"GUEST","invitations":[{"email":"new@example.org","internalPlaceholderIdentifier":"E1"}],"roleIdentifiers":[%d],"expiryDate":%d}`,
			role, w.Now.Add(7*24*time.Hour).Unix()))
	}
	if rec := invite(w.RoleA); rec.Code != http.StatusCreated {
		t.Fatalf("invite to a role of its organisation: %d %s", rec.Code, rec.Body)
	}
	open, _ := w.Store.ListOpenInvitationsOfRole(context.Background(), w.RoleA)
	found := false
	for _, inv := range open {
		if inv.Email == "new@example.org" && inv.InternalPlaceholderIdentifier == "E1" && inv.InviterName == "pdp" {
			found = true
		}
	}
	if !found {
		t.Errorf("invitation not stored: %+v", open)
	}
	// Another organization's role is as unknown as a missing one (400).
	if rec := invite(w.RoleB); rec.Code != http.StatusBadRequest {
		t.Errorf("invite to a role of another organisation: %d %s", rec.Code, rec.Body)
	}
}

// Issue 21 item 3: a contact provisioned with suppressInvitation whose CRM
// roles are all unknown (an invitation without roles) stays listable and
// removable.
func TestCRMContactWithoutKnownRolesIsRemovable(t *testing.T) {
	w := newCRMWorld(t)
	wantText(t, w.crm("crm", "POST", "/crm/profile", crmProfileBody("c-1", "jdoe", true, "unknown")), "created")
	if rec := w.crm("crm", "GET", "/crm/api/v1/profiles", `{"org_guid":"`+crmOrg+`"}`); rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), `"c-1"`) {
		t.Fatalf("organisation lookup: %d %s", rec.Code, rec.Body.String())
	}
	wantText(t, w.crm("crm", "DELETE", "/crm/profile", crmProfileBody("c-1", "jdoe", true, "unknown")), "deleted")
}

// membershipEntries are the entries of memberships among a role's audit
// (which also records the role's own changes and its invitations).
func membershipEntries(entries []domain.AuditEntry) []domain.AuditEntry {
	var out []domain.AuditEntry
	for _, e := range entries {
		if e.Action == domain.AuditAdd || e.Action == domain.AuditUpdate || e.Action == domain.AuditDelete {
			out = append(out, e)
		}
	}
	return out
}
