package httpapi_test

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/edu-invite/invite/shared/config"
	"github.com/edu-invite/invite/shared/domain"
	"github.com/edu-invite/invite/shared/service"
	"github.com/edu-invite/invite/shared/testkit"
)

type auditPage struct {
	Content []struct {
		ID        int64  `json:"id"`
		RoleID    int64  `json:"roleId"`
		UserEmail string `json:"userEmail"`
		RoleName  string `json:"roleName"`
		Action    string `json:"action"`
		Authority string `json:"authority"`
		CreatedAt string `json:"createdAt"`
	} `json:"content"`
	TotalElements    int64 `json:"totalElements"`
	TotalPages       int   `json:"totalPages"`
	NumberOfElements int   `json:"numberOfElements"`
	Number           int   `json:"number"`
	Last             bool  `json:"last"`
}

func (p auditPage) emails() []string {
	var out []string
	for _, e := range p.Content {
		out = append(out, e.UserEmail)
	}
	return out
}

func TestAuditSearch(t *testing.T) {
	w := newWorld(t)
	get := func(caller, path string) auditPage {
		t.Helper()
		rec := w.do(caller, "GET", path, "")
		if rec.Code != http.StatusOK {
			t.Fatalf("%s: %d %s", path, rec.Code, rec.Body.String())
		}
		return decode[auditPage](t, rec)
	}

	// Role A: the four acceptances of the world (ADD each), by e-mail;
	// besides them its creation and its invitations.
	kinds := map[string]int{}
	for _, e := range get("manager", "/api/v1/user_roles_audit/search?roleId={roleA}&pageSize=50").Content {
		kinds[e.Action]++
	}
	if kinds["ADD"] != 4 || kinds["ROLE_CREATED"] != 1 || kinds["INVITATION_CREATED"] < 1 {
		t.Errorf("role A's audit holds %v, want its creation, its invitations and 4 ADD", kinds)
	}
	a := get("manager", "/api/v1/user_roles_audit/search?roleId={roleA}&sort=userEmail&action=ADD")
	want := []string{"appManager@example.org", "guest@example.org", "inviter@example.org", "manager@example.org"}
	if !slices.Equal(a.emails(), want) || a.TotalElements != 4 {
		t.Fatalf("role A audit %v (total %d), want %v", a.emails(), a.TotalElements, want)
	}
	for _, e := range a.Content {
		if e.RoleID != w.RoleA || e.RoleName != "Role A" || e.Action != "ADD" || e.CreatedAt == "" || e.Authority == "" {
			t.Errorf("entry %+v", e)
		}
	}

	// Paging and direction.
	p0 := get("instAdmin", "/api/v1/user_roles_audit/search?roleId={roleA}&sort=userEmail&pageSize=3&sortDirection=DESC&action=ADD")
	p1 := get("instAdmin", "/api/v1/user_roles_audit/search?roleId={roleA}&sort=userEmail&pageSize=3&pageNumber=1&sortDirection=DESC&action=ADD")
	if p0.TotalPages != 2 || p0.NumberOfElements != 3 || p0.Last || p1.NumberOfElements != 1 || !p1.Last {
		t.Errorf("pages %+v / %+v", p0, p1)
	}
	if got := append(p0.emails(), p1.emails()...); !slices.Equal(got, []string{want[3], want[2], want[1], want[0]}) {
		t.Errorf("descending pages %v", got)
	}

	// Without sort, newest first: time, then id, descending.
	newest := get("manager", "/api/v1/user_roles_audit/search?roleId={roleA}&action=ADD")
	if newest.TotalElements != 4 {
		t.Fatalf("default order: %+v", newest)
	}
	for i := 1; i < len(newest.Content); i++ {
		prev, cur := newest.Content[i-1], newest.Content[i]
		if cur.CreatedAt > prev.CreatedAt || (cur.CreatedAt == prev.CreatedAt && cur.ID >= prev.ID) {
			t.Errorf("default order is not newest first: %+v before %+v", prev, cur)
		}
	}

	// The query is a case-insensitive substring of e-mail or role name.
	if got := get("super", "/api/v1/user_roles_audit/search?roleId={roleA}&query=MAN&sort=userEmail&action=ADD").emails(); !slices.Equal(got, []string{want[0], want[3]}) {
		t.Errorf("query MAN: %v", got)
	}
	if got := get("super", "/api/v1/user_roles_audit/search?query=role%20c&action=ADD"); got.TotalElements != 2 {
		t.Errorf("query 'role c' over all roles: %+v", got)
	}
	// All roles (super users): the six acceptances, sorted by role name on request.
	all := get("superToken", "/api/v1/user_roles_audit/search?sort=roleName&pageSize=10&action=ADD")
	if all.TotalElements != 6 || all.Content[0].RoleName != "Role A" || all.Content[5].RoleName != "Role C" {
		t.Errorf("all roles by role name: %+v", all)
	}

	// A change is searchable at once.
	if rec := w.do("manager", "DELETE", "/api/v1/roles/{roleA}", ""); rec.Code >= 300 {
		t.Fatalf("delete role A: %d %s", rec.Code, rec.Body.String())
	}
	deletes := 0
	for _, e := range get("super", "/api/v1/user_roles_audit/search?roleId={roleA}&sort=action&pageSize=20").Content {
		if e.Action == "DELETE" {
			deletes++
		}
	}
	if deletes != 4 {
		t.Errorf("%d DELETE entries after deleting role A, want 4", deletes)
	}

	// Filters: action, person (e-mail or user id), period.
	onlyDeletes := get("super", "/api/v1/user_roles_audit/search?roleId={roleA}&action=delete&pageSize=20")
	if onlyDeletes.TotalElements != 4 {
		t.Errorf("action=delete: %+v", onlyDeletes)
	}
	for _, e := range onlyDeletes.Content {
		if e.Action != "DELETE" {
			t.Errorf("action=delete gave %+v", e)
		}
	}
	if got := get("super", "/api/v1/user_roles_audit/search?roleId={roleA}&action=ADD,DELETE&pageSize=20"); got.TotalElements != 8 {
		t.Errorf("action=ADD,DELETE: %d entries, want 8", got.TotalElements)
	}
	// (Memberships only: an invitation's entries name the address, not a user.)
	guest := get("super", "/api/v1/user_roles_audit/search?email=GUEST@example.org&pageSize=20&action=ADD,UPDATE,DELETE")
	if guest.TotalElements == 0 {
		t.Fatal("email=guest@example.org found nothing")
	}
	for _, e := range guest.Content {
		if e.UserEmail != "guest@example.org" {
			t.Errorf("email filter gave %+v", e)
		}
	}
	guestID := decode[struct {
		Content []struct {
			UserID int64 `json:"userId"`
		} `json:"content"`
	}](t, w.do("super", "GET", "/api/v1/user_roles_audit/search?email=guest@example.org", "")).Content[0].UserID
	if got := get("super", fmt.Sprintf("/api/v1/user_roles_audit/search?userId=%d&pageSize=20&action=ADD,UPDATE,DELETE", guestID)); got.TotalElements != guest.TotalElements {
		t.Errorf("userId=%d: %d entries %+v, e-mail filter %d", guestID, got.TotalElements, got.Content, guest.TotalElements)
	}
	first := newest.Content[len(newest.Content)-1].CreatedAt
	if got := get("super", "/api/v1/user_roles_audit/search?roleId={roleA}&action=ADD&to="+first); got.TotalElements != 0 {
		t.Errorf("to=%s (exclusive) found %d entries", first, got.TotalElements)
	}
	if got := get("super", "/api/v1/user_roles_audit/search?roleId={roleA}&from="+first+"&action=ADD"); got.TotalElements != 4 {
		t.Errorf("from=%s found %d ADD entries, want 4", first, got.TotalElements)
	}
	if got := get("super", fmt.Sprintf("/api/v1/user_roles_audit/search?roleId={roleA}&from=%d", time.Now().Add(48*time.Hour).Unix())); got.TotalElements != 0 {
		t.Errorf("from two days ahead found %d entries", got.TotalElements)
	}

	for _, bad := range []string{"sort=password", "pageSize=0", "sortDirection=UP", "roleId=-1", "action=CREATED", "userId=x",
		"from=yesterday", "from=2026-02-01&to=2026-01-01"} {
		if rec := w.do("super", "GET", "/api/v1/user_roles_audit/search?"+bad, ""); rec.Code != http.StatusBadRequest {
			t.Errorf("%s: %d, want 400", bad, rec.Code)
		}
	}
}

func TestUnknownRolesAndLandingPageFix(t *testing.T) {
	w := newWorld(t)
	ctx := context.Background()
	full := w.Svc.Registry

	// A role made while wiki had no landing page in the registry.
	bare, err := config.Parse([]byte(strings.Replace(testkit.Registry, `"landingPage": "https://wiki.example.org", `, "", 1)))
	if err != nil {
		t.Fatal(err)
	}
	w.Svc.Registry = bare
	roleD, err := w.Svc.CreateRole(ctx, root, service.RoleInput{Name: "Role D", OrganizationGUID: "org-a", DefaultExpiryDays: 30,
		ApplicationUsages: []service.ApplicationUsageInput{{ManageID: "wiki"}}})
	if err != nil {
		t.Fatal(err)
	}
	if roleD.ApplicationUsages[0].LandingPage != "" {
		t.Fatalf("role D has a landing page already: %+v", roleD.ApplicationUsages)
	}
	w.Svc.Registry = full
	queued := len(w.Queue.Deliveries())

	// It reads every role, so it runs as a job (202, then poll).
	if got := w.runJob(t, "super", "GET", "/api/v1/system/landing-page-fix"); got["roles"] != 1.0 || got["applicationUsages"] != 1.0 {
		t.Fatalf("landing-page-fix: %v", got)
	}
	stored, err := w.Store.GetRole(ctx, roleD.ID)
	if err != nil || stored.ApplicationUsages[0].LandingPage != "https://wiki.example.org" || stored.Auditable.UpdatedBy != "super@example.org" {
		t.Errorf("role D after the fix: %+v %v", stored, err)
	}
	if got := w.runJob(t, "super", "GET", "/api/v1/system/landing-page-fix"); got["roles"] != 0.0 {
		t.Errorf("second fix changed %v", got)
	}
	if len(w.Queue.Deliveries()) != queued {
		t.Errorf("the landing page fix queued SCIM deliveries")
	}

	// Nothing unknown until lms leaves the registry; then role B is.
	if got := decode[[]map[string]any](t, w.do("super", "GET", "/api/v1/system/unknown-roles", "")); len(got) != 0 {
		t.Errorf("unknown roles with a full registry: %v", got)
	}
	noLMS, err := config.Parse([]byte(strings.Replace(testkit.Registry,
		`{"manageId": "lms", "manageType": "OIDC10_RP", "landingPage": "https://lms.example.org"},`, "", 1)))
	if err != nil {
		t.Fatal(err)
	}
	w.Svc.Registry = noLMS
	got := decode[[]map[string]any](t, w.do("super", "GET", "/api/v1/system/unknown-roles", ""))
	if len(got) != 1 || got[0]["name"] != "Role B" || got[0]["id"] != float64(w.RoleB) {
		t.Errorf("unknown roles: %v", got)
	}
}

func TestProviderMetadataAndApplications(t *testing.T) {
	w := newWorld(t)
	rec := w.do("super", "GET", "/api/v1/manage/provider/SAML20_SP/wiki", "")
	md := decode[map[string]any](t, rec)
	if rec.Code != 200 || md["id"] != "wiki" || md["type"] != "SAML20_SP" || md["url"] != "https://wiki.example.org" ||
		len(md["provisionings"].([]any)) != 2 {
		t.Errorf("wiki metadata: %d %v", rec.Code, md)
	}
	if rec := w.do("super", "GET", "/api/v1/manage/provider/OIDC10_RP/wiki", ""); rec.Code != http.StatusNotFound {
		t.Errorf("wiki as OIDC10_RP: %d, want 404", rec.Code)
	}
	rec = w.do("super", "GET", "/api/v1/manage/provider/PROVISIONING/sp-a", "")
	md = decode[map[string]any](t, rec)
	if rec.Code != 200 || md["scim_url"] != "https://a.example.org/scim" || md["auth_method"] != "bearer" {
		t.Errorf("sp-a metadata: %d %v", rec.Code, md)
	}
	if strings.Contains(rec.Body.String(), "WORLD_SP_A") {
		t.Errorf("metadata shows a secret reference: %s", rec.Body.String())
	}

	type overview struct {
		Providers     []map[string]any `json:"providers"`
		Provisionings []map[string]any `json:"provisionings"`
	}
	admin := decode[overview](t, w.do("instAdmin", "GET", "/api/v1/manage/applications", ""))
	if len(admin.Providers) != 1 || admin.Providers[0]["id"] != "wiki" || admin.Providers[0]["roleCount"] != float64(1) || len(admin.Provisionings) != 2 {
		t.Errorf("institution admin's applications: %+v", admin)
	}
	super := decode[overview](t, w.do("super", "GET", "/api/v1/manage/applications", ""))
	if len(super.Providers) != 4 || len(super.Provisionings) != 2 { // wiki, lms, drive and the unused spare-app
		t.Errorf("super user's applications: %+v", super)
	}
}

// The audit search reads a bounded window: the newest AuditSearchWindow
// entries of the role; older ones are kept but not found.
func TestAuditSearchReadsABoundedWindow(t *testing.T) {
	w := newWorld(t)
	ctx := context.Background()
	n := service.AuditSearchWindow + 5
	var entries []domain.AuditEntry
	for i := 1; i <= n; i++ {
		entries = append(entries, domain.AuditEntry{ID: int64(100000 + i), RoleID: w.RoleB, RoleName: "Role B", UserID: 1,
			UserEmail: fmt.Sprintf("u%05d@example.org", i), Action: domain.AuditAdd, CreatedAt: w.Now.Add(time.Duration(i) * time.Second)})
	}
	for start := 0; start < n; start += 100 {
		if err := w.Store.DeleteUserRoles(ctx, nil, entries[start:min(start+100, n)], nil); err != nil {
			t.Fatal(err)
		}
	}
	rec := w.do("super", "GET", "/api/v1/user_roles_audit/search?roleId={roleB}&sort=createdAt&pageSize=1", "")
	page := decode[auditPage](t, rec)
	if page.TotalElements != int64(service.AuditSearchWindow) || page.Content[0].UserEmail != "u00006@example.org" {
		t.Errorf("window: total %d, oldest found %v", page.TotalElements, page.emails())
	}
	if got := decode[auditPage](t, w.do("super", "GET", "/api/v1/user_roles_audit/search?roleId={roleB}&query=u00005@", "")); got.TotalElements != 0 {
		t.Errorf("an entry older than the window was found: %v", got.emails())
	}
}
