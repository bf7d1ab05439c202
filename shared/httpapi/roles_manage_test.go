package httpapi_test

import (
	"context"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/edu-invite/invite/shared/domain"
	"github.com/edu-invite/invite/shared/httpapi"
	"github.com/edu-invite/invite/shared/service"
)

type rolePage = httpapi.PageJSON[httpapi.RoleJSON]

func roleNamesOf(roles []httpapi.RoleJSON) string {
	var names []string
	for _, r := range roles {
		names = append(names, r.Name)
	}
	return strings.Join(names, ",")
}

func TestListRolesScopesAndPages(t *testing.T) {
	w := newWorld(t)
	tests := []struct {
		name, caller, query string
		wantNames           string
		wantTotal           int64
		wantNumber, wantPgs int
		first, last         bool
	}{
		// force (the default) puts every role of the scope in one page.
		{"super sees all", "super", "", "Role A,Role B,Role C", 3, 0, 1, true, true},
		{"institution admin sees the organization's", "instAdmin", "", "Role A", 1, 0, 1, true, true},
		{"organization token sees the organization's", "orgToken", "", "Role A", 1, 0, 1, true, true},
		{"inviter sees the roles held", "inviter", "", "Role A", 1, 0, 1, true, true},
		{"second page", "super", "?force=false&pageSize=2&pageNumber=1", "Role C", 3, 1, 2, false, true},
		{"first page, descending", "superToken", "?force=false&pageSize=2&sortDirection=DESC", "Role C,Role B", 3, 0, 2, true, false},
		{"query matches word prefixes, any case", "super", "?force=false&query=ROLE%20b", "Role B", 1, 0, 1, true, true},
		{"query without a match", "super", "?force=false&query=zz", "", 0, 0, 0, true, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec := w.do(tt.caller, "GET", "/api/v1/roles"+tt.query, "")
			if rec.Code != http.StatusOK {
				t.Fatalf("status %d: %s", rec.Code, rec.Body.String())
			}
			page := decode[rolePage](t, rec)
			if got := roleNamesOf(page.Content); got != tt.wantNames {
				t.Errorf("roles %q, want %q", got, tt.wantNames)
			}
			if page.TotalElements != tt.wantTotal || page.Number != tt.wantNumber || page.TotalPages != tt.wantPgs ||
				page.First != tt.first || page.Last != tt.last || page.NumberOfElements != len(page.Content) || page.Empty != (len(page.Content) == 0) {
				t.Errorf("envelope %+v", page)
			}
		})
	}

	// Member counts: role A has the appManager, manager, inviter and guest;
	// role C the super user and the institution admin.
	page := decode[rolePage](t, w.do("super", "GET", "/api/v1/roles", ""))
	counts := map[string]int64{}
	for _, r := range page.Content {
		counts[r.Name] = r.UserRoleCount
	}
	if counts["Role A"] != 4 || counts["Role B"] != 0 || counts["Role C"] != 2 {
		t.Errorf("userRoleCount = %v, want A 4, B 0, C 2", counts)
	}

	for q, param := range map[string]string{"?force=maybe": "force", "?force=false&pageSize=0": "pageSize", "?force=false&sort=secret": "sort"} {
		rec := w.do("super", "GET", "/api/v1/roles"+q, "")
		if msg, _ := decode[map[string]any](t, rec)["message"].(string); rec.Code != http.StatusBadRequest || !strings.Contains(msg, param) {
			t.Errorf("%s: status %d %s, want 400 naming the parameter", q, rec.Code, rec.Body.String())
		}
	}
	if rec := w.do("guest", "GET", "/api/v1/roles", ""); rec.Code != http.StatusForbidden {
		t.Errorf("guest: status %d, want 403", rec.Code)
	}
}

func roleBody(id int64, name, description, org string, apps ...string) string {
	var usages []string
	for _, a := range apps {
		usages = append(usages, `{"application":{"manageId":"`+a+`"}}`)
	}
	return `{"id":` + itoa(id) + `,"name":"` + name + `","description":"` + description + `","organizationGUID":"` + org +
		`","defaultExpiryDays":30,"shortName":"ignored","urn":"ignored","applicationUsages":[` + strings.Join(usages, ",") + `]}`
}

// deliveriesOf summarizes queued deliveries as "kind@sp/role" sorted.
func deliveriesOf(ds []domain.Delivery) []string {
	var out []string
	for _, d := range ds {
		out = append(out, string(d.Kind)+"@"+d.SPID+"/"+itoa(d.RoleID))
	}
	slices.Sort(out)
	return out
}

func TestUpdateRoleRenamesAndProvisions(t *testing.T) {
	w := newWorld(t)
	before, err := w.Store.GetRole(context.Background(), w.RoleA)
	if err != nil {
		t.Fatal(err)
	}
	queued := len(w.Queue.Deliveries())
	rec := w.do("manager", "PUT", "/api/v1/roles", roleBody(w.RoleA, "Wiki Editors", "Edits the wiki", "", "wiki"))
	if rec.Code != http.StatusOK {
		t.Fatalf("status %d: %s", rec.Code, rec.Body.String())
	}
	got := decode[httpapi.RoleJSON](t, rec)
	if got.ID != w.RoleA || got.Name != "Wiki Editors" || got.Description != "Edits the wiki" || got.ShortName != before.ShortName ||
		got.URN != before.URN || got.Identifier != before.Identifier || got.OrganizationGUID != "org-a" || got.DefaultExpiryDays != 30 ||
		got.UserRoleCount != 4 || got.Auditable.UpdatedBy != "manager@example.org" {
		t.Errorf("response %+v", got)
	}
	stored, _ := w.Store.GetRole(context.Background(), w.RoleA)
	if stored.Name != "Wiki Editors" || stored.Version != before.Version+1 || stored.URN != before.URN {
		t.Errorf("stored %+v", stored)
	}
	want := []string{"group.update@sp-a/" + itoa(w.RoleA), "group.update@sp-b/" + itoa(w.RoleA)}
	if got := deliveriesOf(w.Queue.Deliveries()[queued:]); !slices.Equal(got, want) {
		t.Errorf("queued %v, want %v", got, want)
	}
	// The old name is free again, the new one is taken (case-insensitively).
	if rec := w.do("super", "POST", "/api/v1/roles", `{"name":"Role A","organizationGUID":"org-a","applicationUsages":[{"application":{"manageId":"lms"}}]}`); rec.Code != http.StatusCreated {
		t.Errorf("old name not free: %d %s", rec.Code, rec.Body.String())
	}
	// A description change alone sends nothing.
	queued = len(w.Queue.Deliveries())
	if rec := w.do("manager", "PUT", "/api/v1/roles", roleBody(w.RoleA, "Wiki Editors", "Other words", "", "wiki")); rec.Code != http.StatusOK {
		t.Fatalf("status %d: %s", rec.Code, rec.Body.String())
	}
	if n := len(w.Queue.Deliveries()) - queued; n != 0 {
		t.Errorf("a description change queued %d deliveries", n)
	}
	// The description is searchable.
	page := decode[rolePage](t, w.do("super", "GET", "/api/v1/roles?force=false&query=oth", ""))
	if roleNamesOf(page.Content) != "Wiki Editors" {
		t.Errorf("search by description word found %q", roleNamesOf(page.Content))
	}
}

func TestUpdateRoleApplicationsMoveTheGroup(t *testing.T) {
	w := newWorld(t)
	ctx := context.Background()
	// Role L of org-a (lms, no SCIM target) gains org-a's wiki: its group is
	// made at sp-a and sp-b.
	roleL := w.createRole("Role L", "org-a", "lms")
	queued := len(w.Queue.Deliveries())
	if rec := w.do("super", "PUT", "/api/v1/roles", roleBody(roleL, "Role L", "", "", "lms", "wiki")); rec.Code != http.StatusOK {
		t.Fatalf("status %d: %s", rec.Code, rec.Body.String())
	}
	want := []string{"group.update@sp-a/" + itoa(roleL), "group.update@sp-b/" + itoa(roleL)}
	if got := deliveriesOf(w.Queue.Deliveries()[queued:]); !slices.Equal(got, want) {
		t.Errorf("queued %v, want %v", got, want)
	}
	wiki := decode[[]httpapi.RoleJSON](t, w.do("super", "GET", "/api/v1/roles/application/wiki", ""))
	if roleNamesOf(wiki) != "Role A,Role L" {
		t.Errorf("roles of wiki: %q", roleNamesOf(wiki))
	}
	// Role A loses wiki for drive: its group is deleted at sp-a and sp-b.
	queued = len(w.Queue.Deliveries())
	if rec := w.do("instAdmin", "PUT", "/api/v1/roles", roleBody(w.RoleA, "Role A", "", "org-a", "drive")); rec.Code != http.StatusOK {
		t.Fatalf("status %d: %s", rec.Code, rec.Body.String())
	}
	want = []string{"group.delete@sp-a/" + itoa(w.RoleA), "group.delete@sp-b/" + itoa(w.RoleA)}
	if got := deliveriesOf(w.Queue.Deliveries()[queued:]); !slices.Equal(got, want) {
		t.Errorf("queued %v, want %v", got, want)
	}
	stored, _ := w.Store.GetRole(ctx, w.RoleA)
	if !slices.Equal(stored.ManageIDs(), []string{"drive"}) {
		t.Errorf("stored applications %v", stored.ManageIDs())
	}
	// Only super users move a role to another organization.
	if rec := w.do("super", "PUT", "/api/v1/roles", roleBody(w.RoleA, "Role A", "", "org-b", "drive")); rec.Code != http.StatusOK {
		t.Fatalf("status %d: %s", rec.Code, rec.Body.String())
	}
	roles := decode[[]httpapi.RoleJSON](t, w.do("super", "GET", "/api/external/v1/internal/invite/roles/org-b/drive", ""))
	if roleNamesOf(roles) != "Role A" || roles[0].OrganizationGUID != "org-b" {
		t.Errorf("roles of org-b using drive: %+v", roles)
	}
}

func TestUpdateRoleRefusalsChangeNothing(t *testing.T) {
	w := newWorld(t)
	tests := []struct {
		name, caller, body string
		status             int
	}{
		{"name taken by another role (any case)", "super", roleBody(w.RoleA, "role b", "", "", "wiki"), http.StatusConflict},
		{"name missing", "super", roleBody(w.RoleA, " ", "", "", "wiki"), http.StatusBadRequest},
		{"no applications", "super", roleBody(w.RoleA, "Role A", "", ""), http.StatusBadRequest},
		{"unknown application", "super", roleBody(w.RoleA, "Role A", "", "", "nope"), http.StatusBadRequest},
		{"both expiry defaults", "super", `{"id":` + itoa(w.RoleA) + `,"name":"X","defaultExpiryDays":3,"defaultExpiryDate":"2027-01-01","applicationUsages":[{"application":{"manageId":"wiki"}}]}`, http.StatusBadRequest},
		{"without id", "super", `{"name":"X","applicationUsages":[{"application":{"manageId":"wiki"}}]}`, http.StatusBadRequest},
		{"unknown role", "super", roleBody(999, "X", "", "", "wiki"), http.StatusNotFound},
		{"inviter renames", "inviter", roleBody(w.RoleA, "Mine", "", "", "wiki"), http.StatusForbidden},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			queued := len(w.Queue.Deliveries())
			before, _ := w.Store.GetRole(context.Background(), w.RoleA)
			rec := w.do(tt.caller, "PUT", "/api/v1/roles", tt.body)
			if rec.Code != tt.status {
				t.Fatalf("status %d, want %d: %s", rec.Code, tt.status, rec.Body.String())
			}
			if body := decode[map[string]any](t, rec); body["status"] != float64(tt.status) || body["path"] != "/api/v1/roles" {
				t.Errorf("error body %v", body)
			}
			after, _ := w.Store.GetRole(context.Background(), w.RoleA)
			if after.Version != before.Version || after.Name != before.Name || !slices.Equal(after.ManageIDs(), before.ManageIDs()) {
				t.Errorf("role changed: %+v", after)
			}
			if n := len(w.Queue.Deliveries()) - queued; n != 0 {
				t.Errorf("queued %d deliveries", n)
			}
		})
	}
}

// TestInternalRoleListIsBounded: the internal array of roles answers one
// listing page at most: a caller who sees more roles than that is told to
// ask for pages, and with pageNumber or pageSize gets them in the page
// envelope, together every role once.
func TestInternalRoleListIsBounded(t *testing.T) {
	w := newWorld(t)
	defer func(size int) { service.RoleForcedPageSize = size }(service.RoleForcedPageSize)
	service.RoleForcedPageSize = 1
	if rec := w.do("super", "GET", "/api/external/v1/internal/invite/roles", ""); rec.Code != http.StatusBadRequest ||
		!strings.Contains(rec.Body.String(), "pageNumber") {
		t.Errorf("more roles than a page: status %d %s, want 400 naming the paging parameters", rec.Code, rec.Body.String())
	}
	if rec := w.do("manager", "GET", "/api/external/v1/internal/invite/roles", ""); rec.Code != http.StatusOK ||
		roleNamesOf(decode[[]httpapi.RoleJSON](t, rec)) != "Role A" {
		t.Errorf("one role: status %d %s, want Role A", rec.Code, rec.Body.String())
	}
	var names []string
	for number := 0; number < 4; number++ {
		rec := w.do("super", "GET", "/api/external/v1/internal/invite/roles?pageSize=1&pageNumber="+itoa(int64(number)), "")
		if rec.Code != http.StatusOK {
			t.Fatalf("page %d: status %d %s", number, rec.Code, rec.Body.String())
		}
		page := decode[struct {
			Content       []httpapi.RoleJSON `json:"content"`
			TotalElements int64              `json:"totalElements"`
		}](t, rec)
		if page.TotalElements != 3 {
			t.Errorf("page %d: total %d, want 3", number, page.TotalElements)
		}
		if n := roleNamesOf(page.Content); n != "" {
			names = append(names, n)
		}
	}
	if got := strings.Join(names, ", "); got != "Role A, Role B, Role C" {
		t.Errorf("pages %q, want Role A, Role B, Role C", got)
	}
}

func TestRolesOfApplicationAndOrganization(t *testing.T) {
	w := newWorld(t)
	tests := []struct {
		caller, path, want string
	}{
		{"super", "/api/v1/roles/application/wiki", "Role A"},
		{"inviter", "/api/v1/roles/application/wiki", "Role A"},
		{"inviter", "/api/v1/roles/application/lms", ""}, // role B is not the inviter's
		{"orgToken", "/api/external/v1/roles/application/lms", ""},
		{"superToken", "/api/external/v1/roles/application/lms", "Role B"},
		{"orgToken", "/api/external/v1/internal/invite/roles/org-a/wiki", "Role A"},
		{"orgToken", "/api/external/v1/internal/invite/roles/org-a/lms", ""},
		{"super", "/api/external/v1/internal/invite/roles/org-b/lms", "Role B"},
		{"manager", "/api/external/v1/internal/invite/roles", "Role A"},
	}
	for _, tt := range tests {
		rec := w.do(tt.caller, "GET", tt.path, "")
		if rec.Code != http.StatusOK {
			t.Errorf("%s %s: status %d %s", tt.caller, tt.path, rec.Code, rec.Body.String())
			continue
		}
		roles := decode[[]httpapi.RoleJSON](t, rec)
		if got := roleNamesOf(roles); got != tt.want {
			t.Errorf("%s %s: roles %q, want %q", tt.caller, tt.path, got, tt.want)
		}
		if tt.want == "Role A" && roles[0].UserRoleCount != 4 {
			t.Errorf("%s %s: userRoleCount %d, want 4", tt.caller, tt.path, roles[0].UserRoleCount)
		}
	}
	// The shared pattern still serves the provisioning status, and nothing else.
	if rec := w.do("super", "GET", "/api/v1/roles/"+itoa(w.RoleA)+"/provisioning", ""); rec.Code != http.StatusOK {
		t.Errorf("provisioning status: %d", rec.Code)
	}
	if rec := w.do("super", "GET", "/api/v1/roles/"+itoa(w.RoleA)+"/other", ""); rec.Code != http.StatusNotFound {
		t.Errorf("unknown aspect: %d", rec.Code)
	}
}
