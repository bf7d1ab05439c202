package httpapi_test

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/edu-invite/invite/shared/domain"
)

func TestMembersOfRole(t *testing.T) {
	w := newWorld(t)
	rec := w.do("inviter", "GET", "/api/v1/user_roles/roles/{roleA}", "")
	if rec.Code != http.StatusOK {
		t.Fatalf("status %d: %s", rec.Code, rec.Body.String())
	}
	members := decode[[]struct {
		ID        int64  `json:"id"`
		Authority string `json:"authority"`
		RoleID    int64  `json:"roleId"`
		User      struct {
			ID    int64  `json:"id"`
			Email string `json:"email"`
			Sub   string `json:"sub"`
		} `json:"user"`
		UserInfo map[string]any `json:"userInfo"`
	}](t, rec)
	want := map[string]string{"appManager": "APPLICATION_MANAGER", "manager": "MANAGER", "inviter": "INVITER", "guest": "GUEST"}
	if len(members) != len(want) {
		t.Fatalf("%d members, want %d: %s", len(members), len(want), rec.Body.String())
	}
	for _, m := range members {
		caller := strings.TrimSuffix(m.User.Email, "@example.org")
		if want[caller] != m.Authority || m.ID != w.UserRoles[caller].ID || m.User.ID != w.Users[caller].ID ||
			m.RoleID != w.RoleA || m.User.Sub != personOf(caller).Sub || m.UserInfo["email"] != m.User.Email {
			t.Errorf("member %+v does not match the world's %s", m, caller)
		}
	}
	if rec := w.do("manager", "GET", "/api/v1/user_roles/roles/999999", ""); rec.Code != http.StatusNotFound {
		t.Errorf("unknown role: status %d", rec.Code)
	}
	if rec := w.do("manager", "GET", "/api/v1/user_roles/roles/abc", ""); rec.Code != http.StatusBadRequest {
		t.Errorf("bad role id: status %d", rec.Code)
	}
}

// TestMembersOfRolePaged: U10 with pageNumber or pageSize answers one
// page of the role's members by name, with their whole users, in the page
// envelope with the role's member count; the pages together are the
// unpaged answer; bad paging parameters are a 400.
func TestMembersOfRolePaged(t *testing.T) {
	w := newWorld(t)
	type member struct {
		ID   int64 `json:"id"`
		User struct {
			ID   int64  `json:"id"`
			Name string `json:"name"`
			Sub  string `json:"sub"`
		} `json:"user"`
	}
	type page struct {
		Content       []member `json:"content"`
		TotalElements int64    `json:"totalElements"`
		TotalPages    int      `json:"totalPages"`
		Number        int      `json:"number"`
	}
	all := decode[[]member](t, w.do("inviter", "GET", "/api/v1/user_roles/roles/{roleA}", ""))
	var paged []string
	for number := 0; number < 3; number++ {
		rec := w.do("inviter", "GET", fmt.Sprintf("/api/v1/user_roles/roles/{roleA}?pageSize=3&pageNumber=%d", number), "")
		if rec.Code != http.StatusOK {
			t.Fatalf("page %d: status %d: %s", number, rec.Code, rec.Body.String())
		}
		p := decode[page](t, rec)
		if p.TotalElements != int64(len(all)) || p.TotalPages != (len(all)+2)/3 || p.Number != number {
			t.Errorf("page %d: total %d, pages %d, number %d; want %d members", number, p.TotalElements, p.TotalPages, p.Number, len(all))
		}
		for _, m := range p.Content {
			if m.User.Sub == "" || m.ID == 0 {
				t.Errorf("page %d: member %+v without its whole user", number, m)
			}
			paged = append(paged, m.User.Name)
		}
	}
	var names []string
	for _, m := range all {
		names = append(names, m.User.Name)
	}
	slices.Sort(names)
	if !slices.IsSorted(paged) || !slices.Equal(paged, names) {
		t.Errorf("pages %v, want every member by name %v", paged, names)
	}
	if rec := w.do("inviter", "GET", "/api/v1/user_roles/roles/{roleA}?pageSize=3&sortDirection=DESC", ""); rec.Code != http.StatusOK ||
		decode[page](t, rec).Content[0].User.Name != names[len(names)-1] {
		t.Errorf("descending: status %d: %s", rec.Code, rec.Body.String())
	}
	for _, bad := range []string{"?pageSize=0", "?pageNumber=-1", "?pageSize=101", "?pageSize=2&sortDirection=UP"} {
		if rec := w.do("inviter", "GET", "/api/v1/user_roles/roles/{roleA}"+bad, ""); rec.Code != http.StatusBadRequest {
			t.Errorf("%s: status %d, want 400", bad, rec.Code)
		}
	}
}

type memberItem struct {
	ID        int64  `json:"id"`
	Authority string `json:"authority"`
	UserID    int64  `json:"user_id"`
	Name      string `json:"name"`
	Email     string `json:"email"`
	RoleID    int64  `json:"role_id"`
}

type memberPage struct {
	Content       []memberItem `json:"content"`
	TotalElements int64        `json:"totalElements"`
	TotalPages    int          `json:"totalPages"`
	Number        int          `json:"number"`
	Size          int          `json:"size"`
	First, Last   bool
}

func names(items []memberItem) string {
	var out []string
	for _, it := range items {
		out = append(out, it.Name)
	}
	return strings.Join(out, ", ")
}

func TestSearchMembersOfRole(t *testing.T) {
	w := newWorld(t)
	// The manager also gets the guest role included: in both lists.
	rec := w.do("super", "POST", "/api/v1/user_roles/user_role_provisioning",
		`{"roleIdentifiers":[{roleA}],"email":"zoe@example.org","name":"Zoe Zimmer","intendedAuthority":"MANAGER","guestRoleIncluded":true}`)
	if rec.Code != http.StatusCreated {
		t.Fatalf("provisioning: %d %s", rec.Code, rec.Body.String())
	}
	tests := []struct {
		name, path string
		want       string
		total      int64
		pages      int
	}{
		{"guests", "/api/v1/user_roles/search/{roleA}/true", "Guest Tester, Zoe Zimmer", 2, 1},
		{"non-guests by name", "/api/v1/user_roles/search/{roleA}/false", "AppManager Tester, Inviter Tester, Manager Tester, Zoe Zimmer", 4, 1},
		{"word prefix of a name", "/api/v1/user_roles/search/{roleA}/false?query=inv", "Inviter Tester", 1, 1},
		{"every word must match", "/api/v1/user_roles/search/{roleA}/false?query=TESTER%20man", "Manager Tester", 1, 1},
		{"word prefix of an e-mail address", "/api/v1/user_roles/search/{roleA}/true?query=zoe%40exa", "Zoe Zimmer", 1, 1},
		{"no match", "/api/v1/user_roles/search/{roleA}/true?query=nobody", "", 0, 0},
		{"first page", "/api/v1/user_roles/search/{roleA}/false?pageSize=3", "AppManager Tester, Inviter Tester, Manager Tester", 4, 2},
		{"second page", "/api/v1/user_roles/search/{roleA}/false?pageSize=3&pageNumber=1", "Zoe Zimmer", 4, 2},
		{"by e-mail descending", "/api/v1/user_roles/search/{roleA}/false?sort=email&sortDirection=DESC", "Zoe Zimmer, Manager Tester, Inviter Tester, AppManager Tester", 4, 1},
		{"by authority", "/api/v1/user_roles/search/{roleA}/false?sort=authority", "Inviter Tester, Manager Tester, Zoe Zimmer, AppManager Tester", 4, 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			rec := w.do("manager", "GET", tc.path, "")
			if rec.Code != http.StatusOK {
				t.Fatalf("status %d: %s", rec.Code, rec.Body.String())
			}
			page := decode[memberPage](t, rec)
			if got := names(page.Content); got != tc.want || page.TotalElements != tc.total || page.TotalPages != tc.pages {
				t.Fatalf("got %q (total %d, pages %d), want %q (total %d, pages %d)", got, page.TotalElements, page.TotalPages, tc.want, tc.total, tc.pages)
			}
			for _, it := range page.Content {
				if it.RoleID != w.RoleA || it.UserID == 0 || it.ID == 0 || it.Email == "" {
					t.Errorf("item %+v lacks fields", it)
				}
			}
		})
	}
	for _, bad := range []string{"/api/v1/user_roles/search/{roleA}/maybe", "/api/v1/user_roles/search/{roleA}/true?sort=sub",
		"/api/v1/user_roles/search/{roleA}/true?pageSize=0", "/api/v1/user_roles/search/{roleA}/true?sortDirection=UP"} {
		if rec := w.do("manager", "GET", bad, ""); rec.Code != http.StatusBadRequest {
			t.Errorf("%s: status %d, want 400", bad, rec.Code)
		}
	}
}

type provisionedUser struct {
	ID                    int64  `json:"id"`
	Sub                   string `json:"sub"`
	Email                 string `json:"email"`
	GivenName             string `json:"givenName"`
	SchacHomeOrganization string `json:"schacHomeOrganization"`
	UserRoles             []struct {
		ID                int64  `json:"id"`
		RoleID            int64  `json:"roleId"`
		Authority         string `json:"authority"`
		GuestRoleIncluded bool   `json:"guestRoleIncluded"`
		EndDate           string `json:"endDate"`
		Inviter           string `json:"inviter"`
		Role              struct {
			Name string `json:"name"`
		} `json:"role"`
	} `json:"userRoles"`
}

func TestProvisionUserRoles(t *testing.T) {
	w := newWorld(t)
	ctx := context.Background()
	setup := len(w.Queue.Deliveries()) // the world's own roles and members
	rec := w.do("orgToken", "POST", "/api/external/v1/user_roles/user_role_provisioning",
		`{"roleIdentifiers":[{roleA}],"email":"pat.doe@Uni.example","eduPersonPrincipalName":"pdoe@uni.example","givenName":"Pat"}`)
	if rec.Code != http.StatusCreated {
		t.Fatalf("status %d: %s", rec.Code, rec.Body.String())
	}
	got := decode[provisionedUser](t, rec)
	// No sub given: derived from the eppn as the reference does.
	if got.Sub != "urn:collab:person:uni.example:pdoe" || got.Email != "pat.doe@uni.example" || got.GivenName != "Pat" ||
		got.SchacHomeOrganization != "uni.example" || len(got.UserRoles) != 1 {
		t.Fatalf("user %+v", got)
	}
	ur := got.UserRoles[0]
	if ur.RoleID != w.RoleA || ur.Authority != "GUEST" || ur.Role.Name != "Role A" || ur.Inviter != "org-a (API token 2)" ||
		!strings.HasPrefix(ur.EndDate, "2027-11-23") {
		t.Errorf("membership %+v (role A: 365 days by default, GUEST by default)", ur)
	}
	stored, err := w.Store.GetUserBySub(ctx, got.Sub)
	if err != nil || stored.ID != got.ID || stored.Email != "pat.doe@uni.example" {
		t.Fatalf("stored user %+v, %v", stored, err)
	}
	if m, err := w.Store.GetUserRole(ctx, got.ID, w.RoleA); err != nil || m.ID != ur.ID || m.Authority != domain.Guest {
		t.Fatalf("stored membership %+v, %v", m, err)
	}
	assertAudit(t, w, w.RoleA, got.ID, domain.AuditAdd, 1)
	// As an acceptance: at each SP the user first, then the membership.
	assertKinds(t, w.Queue.Deliveries()[setup:], "sp-a user.create", "sp-a member.add", "sp-b user.create", "sp-b member.add")

	// Again, and with a second role: the held role is left as it is, the
	// user is found by the derived sub; role B has no SCIM target.
	before := len(w.Queue.Deliveries())
	rec = w.do("super", "POST", "/api/v1/user_roles/user_role_provisioning",
		`{"roleIdentifiers":[{roleA},{roleB}],"email":"pat.doe@uni.example","eduPersonPrincipalName":"pdoe@uni.example","intendedAuthority":"INVITER"}`)
	if rec.Code != http.StatusCreated {
		t.Fatalf("second provisioning: %d %s", rec.Code, rec.Body.String())
	}
	again := decode[provisionedUser](t, rec)
	if again.ID != got.ID || len(again.UserRoles) != 2 || again.UserRoles[0].Authority != "GUEST" || again.UserRoles[1].Authority != "INVITER" {
		t.Fatalf("second provisioning: %+v", again)
	}
	if n := len(w.Queue.Deliveries()) - before; n != 0 {
		t.Errorf("role B has no SCIM target and role A was held, yet %d deliveries", n)
	}
	assertAudit(t, w, w.RoleA, got.ID, domain.AuditAdd, 1)
	assertAudit(t, w, w.RoleB, got.ID, domain.AuditAdd, 1)

	// A known user with a sub of their own gets the membership.
	rec = w.do("instAdmin", "POST", "/api/v1/user_roles/user_role_provisioning",
		`{"roleIdentifiers":[{roleA}],"email":"super@example.org","sub":"`+personOf("super").Sub+`"}`)
	if rec.Code != http.StatusCreated || decode[provisionedUser](t, rec).ID != w.Users["super"].ID {
		t.Fatalf("known user: %d %s", rec.Code, rec.Body.String())
	}
	// Known (and in role C) but not created at sp-a/sp-b yet: created there first.
	assertKinds(t, w.Queue.Deliveries()[before:], "sp-a user.create", "sp-a member.add", "sp-b user.create", "sp-b member.add")
}

func TestProvisionUserRolesRejectsBadInput(t *testing.T) {
	w := newWorld(t)
	setup := len(w.Queue.Deliveries())
	tests := []struct {
		name, caller, body string
		status             int
	}{
		{"no roles", "super", `{"roleIdentifiers":[],"email":"x@example.org"}`, 400},
		{"roles missing", "super", `{"email":"x@example.org"}`, 400},
		{"no email", "super", `{"roleIdentifiers":[{roleA}],"sub":"x"}`, 400},
		{"bad email", "super", `{"roleIdentifiers":[{roleA}],"email":"x at example"}`, 400},
		{"unknown authority", "super", `{"roleIdentifiers":[{roleA}],"email":"x@example.org","intendedAuthority":"OWNER"}`, 400},
		{"unknown role", "super", `{"roleIdentifiers":[{roleA}, 999999],"email":"x@example.org"}`, 400},
		{"role ids of the wrong type", "super", `{"roleIdentifiers":["a"],"email":"x@example.org"}`, 400},
		{"institution admin by a token", "orgToken", `{"roleIdentifiers":[{roleA}],"email":"x@example.org","intendedAuthority":"INSTITUTION_ADMIN"}`, 403},
		{"one role of another organization (as an unknown one)", "instAdmin", `{"roleIdentifiers":[{roleA},{roleB}],"email":"x@example.org"}`, 400},
		{"a manager is no administrator", "manager", `{"roleIdentifiers":[{roleA}],"email":"x@example.org"}`, 403},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			rec := w.do(tc.caller, "POST", "/api/v1/user_roles/user_role_provisioning", tc.body)
			if rec.Code != tc.status {
				t.Fatalf("status %d, want %d: %s", rec.Code, tc.status, rec.Body.String())
			}
			if body := decode[map[string]any](t, rec); body["message"] == "" || body["path"] != "/api/v1/user_roles/user_role_provisioning" {
				t.Errorf("error body %v", body)
			}
		})
	}
	if n := len(w.Queue.Deliveries()) - setup; n != 0 {
		t.Errorf("refused provisionings queued %d deliveries", n)
	}
	if _, err := w.Store.GetUserBySub(context.Background(), "urn:collab:person:example.org:x"); !domain.IsNotFound(err) {
		t.Errorf("a refused provisioning stored a user: %v", err)
	}
	if urs, _, err := w.Store.ListUserRolesOfRole(context.Background(), w.RoleB, "", 10); err != nil || len(urs) != 0 {
		t.Errorf("a refused provisioning stored memberships of role B: %v %v", urs, err)
	}
}

func TestRemoveLastMembershipDeletesTheUser(t *testing.T) {
	w := newWorld(t)
	ctx := context.Background()
	guest := w.Users["guest"]
	// The guest was created at sp-a only; sp-b never got them.
	mustPutLink(t, w, guest.ID, "sp-a")
	setup := len(w.Queue.Deliveries())
	rec := w.do("inviter", "DELETE", "/api/v1/user_roles/{userRole:guest}/true", "")
	if rec.Code != http.StatusNoContent || rec.Body.Len() != 0 {
		t.Fatalf("status %d: %s", rec.Code, rec.Body.String())
	}
	if _, err := w.Store.GetUserRoleByID(ctx, w.UserRoles["guest"].ID); !domain.IsNotFound(err) {
		t.Errorf("membership still there: %v", err)
	}
	if _, err := w.Store.GetUser(ctx, guest.ID); !domain.IsNotFound(err) {
		t.Errorf("user still there: %v", err)
	}
	if _, err := w.Store.GetUserBySub(ctx, guest.Sub); !domain.IsNotFound(err) {
		t.Errorf("sub still reserved: %v", err)
	}
	assertAudit(t, w, w.RoleA, guest.ID, domain.AuditDelete, 1)
	// Group removals first, then the user at every SP of the role.
	assertKinds(t, w.Queue.Deliveries()[setup:], "sp-a member.remove", "sp-b member.remove", "sp-a user.delete", "sp-b user.delete")
	if rec := w.do("manager", "DELETE", "/api/v1/user_roles/{userRole:guest}/true", ""); rec.Code != http.StatusNotFound {
		t.Errorf("removing again: status %d, want 404", rec.Code)
	}
}

func TestRemoveMembershipKeepsAUserWithOthers(t *testing.T) {
	w := newWorld(t)
	ctx := context.Background()
	inviter := w.Users["inviter"]
	if rec := w.do("super", "POST", "/api/v1/user_roles/user_role_provisioning",
		`{"roleIdentifiers":[{roleB}],"email":"inviter@example.org","sub":"`+inviter.Sub+`"}`); rec.Code != http.StatusCreated {
		t.Fatalf("provisioning: %d %s", rec.Code, rec.Body.String())
	}
	before := len(w.Queue.Deliveries())
	// An inviter may not remove another inviter's (their own level) membership, but a manager may.
	if rec := w.do("guest", "DELETE", "/api/v1/user_roles/{userRole:inviter}/false", ""); rec.Code != http.StatusForbidden {
		t.Fatalf("guest removing the inviter: status %d", rec.Code)
	}
	rec := w.do("manager", "DELETE", "/api/v1/user_roles/{userRole:inviter}/false", "")
	if rec.Code != http.StatusNoContent {
		t.Fatalf("status %d: %s", rec.Code, rec.Body.String())
	}
	if u, err := w.Store.GetUser(ctx, inviter.ID); err != nil || u.ID != inviter.ID {
		t.Fatalf("the user with a membership of role B left was deleted: %v", err)
	}
	if _, err := w.Store.GetUserRole(ctx, inviter.ID, w.RoleB); err != nil {
		t.Errorf("membership of role B gone: %v", err)
	}
	// An inviter who is not a guest was never a member at the SPs.
	assertKinds(t, w.Queue.Deliveries()[before:])
}

func TestRemoveOnePartOfAMembershipWithTheGuestRole(t *testing.T) {
	w := newWorld(t)
	ctx := context.Background()
	rec := w.do("super", "POST", "/api/v1/user_roles/user_role_provisioning",
		`{"roleIdentifiers":[{roleA}],"email":"zoe@example.org","intendedAuthority":"MANAGER","guestRoleIncluded":true}`)
	if rec.Code != http.StatusCreated {
		t.Fatalf("provisioning: %d %s", rec.Code, rec.Body.String())
	}
	zoe := decode[provisionedUser](t, rec)
	path := "/api/v1/user_roles/" + itoa(zoe.UserRoles[0].ID)
	before := len(w.Queue.Deliveries())
	// An inviter may take the guest part only of a manager's membership:
	// the guest part is below them, the manager part is not.
	if rec := w.do("inviter", "DELETE", path+"/false", ""); rec.Code != http.StatusForbidden {
		t.Fatalf("inviter removing the manager part: %d", rec.Code)
	}
	if rec := w.do("inviter", "DELETE", path+"/true", ""); rec.Code != http.StatusNoContent {
		t.Fatalf("inviter removing the guest part: %d %s", rec.Code, rec.Body.String())
	}
	ur, err := w.Store.GetUserRole(ctx, zoe.ID, w.RoleA)
	if err != nil || ur.Authority != domain.Manager || ur.GuestRoleIncluded {
		t.Fatalf("after removing the guest part: %+v, %v", ur, err)
	}
	// Now an ordinary manager membership: it goes whole, whatever isGuest says.
	if rec := w.do("manager", "DELETE", path+"/true", ""); rec.Code != http.StatusNoContent {
		t.Fatalf("removing the rest: %d", rec.Code)
	}
	if _, err := w.Store.GetUser(ctx, zoe.ID); !domain.IsNotFound(err) {
		t.Errorf("user with no membership left still there: %v", err)
	}
	assertAudit(t, w, w.RoleA, zoe.ID, domain.AuditUpdate, 1)
	assertAudit(t, w, w.RoleA, zoe.ID, domain.AuditDelete, 1)
	// Without the guest part the manager leaves the groups; the rest of the
	// membership never was at the SPs. (No provisioner ran here, so the user
	// has no links; where it has, the user is deleted there: removal tests.)
	assertKinds(t, w.Queue.Deliveries()[before:], "sp-a member.remove", "sp-b member.remove")

	// The other part: a manager with the guest role who loses the manager part stays a guest.
	rec = w.do("super", "POST", "/api/v1/user_roles/user_role_provisioning",
		`{"roleIdentifiers":[{roleA}],"email":"yan@example.org","intendedAuthority":"MANAGER","guestRoleIncluded":true}`)
	yan := decode[provisionedUser](t, rec)
	before = len(w.Queue.Deliveries())
	if rec := w.do("orgToken", "DELETE", "/api/external/v1/user_roles/"+itoa(yan.UserRoles[0].ID)+"/false", ""); rec.Code != http.StatusNoContent {
		t.Fatalf("removing the manager part: %d %s", rec.Code, rec.Body.String())
	}
	if ur, err := w.Store.GetUserRole(ctx, yan.ID, w.RoleA); err != nil || ur.Authority != domain.Guest || ur.GuestRoleIncluded {
		t.Fatalf("after removing the manager part: %+v, %v", ur, err)
	}
	if n := len(w.Queue.Deliveries()) - before; n != 0 {
		t.Errorf("the member stays in the group, yet %d deliveries", n)
	}
}

func TestRemoveUserRoleBadPath(t *testing.T) {
	w := newWorld(t)
	for _, path := range []string{"/api/v1/user_roles/{userRole:guest}/maybe", "/api/v1/user_roles/x/true"} {
		if rec := w.do("super", "DELETE", path, ""); rec.Code != http.StatusBadRequest {
			t.Errorf("%s: status %d, want 400", path, rec.Code)
		}
	}
	if _, err := w.Store.GetUserRoleByID(context.Background(), w.UserRoles["guest"].ID); err != nil {
		t.Errorf("a refused removal removed: %v", err)
	}
}

// assertKinds checks the queued deliveries as "sp kind" in order.
func assertKinds(t *testing.T, ds []domain.Delivery, want ...string) {
	t.Helper()
	var got []string
	for _, d := range ds {
		got = append(got, d.SPID+" "+string(d.Kind))
	}
	if strings.Join(got, ", ") != strings.Join(want, ", ") {
		t.Errorf("deliveries %q, want %q", got, want)
	}
}

// assertAudit checks how many audit entries of an action a role has for a user.
func assertAudit(t *testing.T, w *world, roleID, userID int64, action domain.AuditAction, want int) {
	t.Helper()
	entries, err := w.Store.ListAuditEntriesOfRole(context.Background(), roleID)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, e := range entries {
		if e.UserID == userID && e.Action == action && e.RoleID == roleID && e.UserEmail != "" {
			n++
		}
	}
	if n != want {
		t.Errorf("%d %s audit entries for user %d in role %d, want %d: %+v", n, action, userID, roleID, want, entries)
	}
}

func mustPutLink(t *testing.T, w *world, userID int64, sp string) {
	t.Helper()
	now := w.Now
	if err := w.Store.PutLink(context.Background(), domain.SPLink{Kind: domain.ResourceUser, LocalID: userID, SPID: sp,
		RemoteID: "remote-" + itoa(userID), Status: domain.StatusProvisioned, ProvisionedAt: &now, UpdatedAt: now}); err != nil {
		t.Fatal(err)
	}
}
