package httpapi_test

import (
	"context"
	"encoding/json"
	"slices"
	"testing"
	"time"

	"github.com/edu-invite/invite/shared/auth"
	"github.com/edu-invite/invite/shared/domain"
	"github.com/edu-invite/invite/shared/service"
	"github.com/edu-invite/invite/shared/testkit"
)

// stranger signs in with the given person but is not known to the service.
func addStranger(w *world, name string, p auth.Person) {
	w.API.Authenticator.People.(people)[name] = p
}

// acceptPerson invites a person to a role and accepts as them.
func acceptPerson(w *world, p auth.Person, role int64) domain.User {
	w.t.Helper()
	return testkit.InviteAndAccept(w.t, w.Svc, root, p, role, domain.Guest, w.Now.Add(14*24*time.Hour)).User
}

func person(given, family, email string) auth.Person {
	return auth.Person{Sub: "urn:collab:person:example.org:" + email, Email: email, GivenName: given, FamilyName: family,
		Name: given + " " + family, SchacHomeOrganization: "example.org"}
}

type userBody struct {
	ID        *int64 `json:"id"`
	Sub       string `json:"sub"`
	Name      string `json:"name"`
	Email     string `json:"email"`
	UserRoles []struct {
		ID        int64  `json:"id"`
		Authority string `json:"authority"`
		Role      struct {
			ID   int64  `json:"id"`
			Name string `json:"name"`
		} `json:"role"`
	} `json:"userRoles"`
	InstitutionAdmin bool `json:"institutionAdmin"`
}

func TestMeAndOtherUser(t *testing.T) {
	w := newWorld(t)
	rec := w.do("guest", "GET", "/api/v1/users/me", "")
	me := decode[userBody](t, rec)
	if rec.Code != 200 || me.ID == nil || *me.ID != w.Users["guest"].ID || me.Email != "guest@example.org" ||
		len(me.UserRoles) != 1 || me.UserRoles[0].Role.ID != w.RoleA || me.UserRoles[0].Role.Name != "Role A" ||
		me.UserRoles[0].Authority != "GUEST" || me.UserRoles[0].ID != w.UserRoles["guest"].ID {
		t.Fatalf("me = %d %+v", rec.Code, me)
	}

	// A signed-in person not yet known gets their claims back.
	addStranger(w, "stranger", person("Stan", "Ranger", "stan@example.org"))
	rec = w.do("stranger", "GET", "/api/v1/users/me", "")
	stranger := decode[userBody](t, rec)
	if rec.Code != 200 || stranger.ID != nil || stranger.Sub != "urn:collab:person:example.org:stan@example.org" ||
		stranger.Name != "Stan Ranger" || stranger.UserRoles == nil || len(stranger.UserRoles) != 0 {
		t.Fatalf("unknown person's me = %d %s", rec.Code, rec.Body.String())
	}

	// The manager of role A sees its guest with the guest's roles.
	rec = w.do("manager", "GET", "/api/v1/users/other/{user:guest}", "")
	other := decode[userBody](t, rec)
	if rec.Code != 200 || other.ID == nil || *other.ID != w.Users["guest"].ID || len(other.UserRoles) != 1 || other.UserRoles[0].Role.ID != w.RoleA {
		t.Fatalf("other = %d %s", rec.Code, rec.Body.String())
	}
	rec = w.do("manager", "GET", "/api/v1/users/other/abc", "")
	if rec.Code != 400 {
		t.Errorf("bad id: %d", rec.Code)
	}
	rec = w.do("manager", "GET", "/api/v1/users/unknown-section/1", "")
	if rec.Code != 404 || decode[map[string]any](t, rec)["status"] != float64(404) {
		t.Errorf("unknown section: %d %s", rec.Code, rec.Body.String())
	}
}

func TestSessionConfig(t *testing.T) {
	w := newWorld(t)
	addStranger(w, "noMail", auth.Person{Sub: "no-mail", GivenName: "No", FamilyName: "Mail"})
	type config struct {
		Authenticated     bool     `json:"authenticated"`
		Name              string   `json:"name"`
		GroupURNPrefix    string   `json:"groupUrnPrefix"`
		ClientURL         string   `json:"clientUrl"`
		Languages         string   `json:"languages"`
		MissingAttributes []string `json:"missingAttributes"`
		SeedAllowed       bool     `json:"performanceSeedAllowed"`
	}
	for _, tc := range []struct {
		caller, query string
		authenticated bool
		name          string
		missing       []string
	}{
		{"anonymous", "", false, "", nil},
		{"guest", "", true, "Guest Tester", nil},
		{"orgToken", "", true, "org-a (API token 2)", nil},
		{"noMail", "", false, "No Mail", []string{"email", "schacHomeOrganization"}},
		{"noMail", "?guest=true", false, "No Mail", []string{"email"}},
	} {
		t.Run(tc.caller+tc.query, func(t *testing.T) {
			rec := w.do(tc.caller, "GET", "/api/v1/users/config"+tc.query, "")
			c := decode[config](t, rec)
			if rec.Code != 200 || c.Authenticated != tc.authenticated || c.Name != tc.name || !slices.Equal(c.MissingAttributes, tc.missing) ||
				c.GroupURNPrefix != "urn:collab:group:example.org" || c.ClientURL != "https://invite.example.org" || c.Languages != "en,nl" || c.SeedAllowed {
				t.Errorf("config = %d %s", rec.Code, rec.Body.String())
			}
		})
	}
	if rec := w.do("anonymous", "GET", "/api/v1/users/config?guest=maybe", ""); rec.Code != 400 {
		t.Errorf("bad guest flag: %d", rec.Code)
	}
}

func TestInstitutionAdminsOfRole(t *testing.T) {
	w := newWorld(t)
	rec := w.do("manager", "GET", "/api/v1/users/institution-admins/{roleA}", "")
	admins := decode[[]userBody](t, rec)
	if rec.Code != 200 || len(admins) != 1 || *admins[0].ID != w.Users["instAdmin"].ID || !admins[0].InstitutionAdmin {
		t.Fatalf("admins of role A = %d %s", rec.Code, rec.Body.String())
	}
	rec = w.do("super", "GET", "/api/v1/users/institution-admins/{roleB}", "")
	if admins := decode[[]userBody](t, rec); rec.Code != 200 || len(admins) != 0 {
		t.Fatalf("admins of role B = %d %s", rec.Code, rec.Body.String())
	}
	if rec := w.do("super", "GET", "/api/v1/users/institution-admins/424242", ""); rec.Code != 404 {
		t.Errorf("unknown role: %d", rec.Code)
	}
}

type searchPage struct {
	Content []struct {
		ID            int64  `json:"id"`
		Name          string `json:"name"`
		Email         string `json:"email"`
		RoleSummaries []struct {
			ID        int64   `json:"id"`
			RoleName  string  `json:"roleName"`
			Authority string  `json:"authority"`
			EndDate   *string `json:"endDate"`
		} `json:"roleSummaries"`
	} `json:"content"`
	TotalElements int64 `json:"totalElements"`
	TotalPages    int   `json:"totalPages"`
	Number        int   `json:"number"`
	Size          int   `json:"size"`
	First, Last   bool
	Empty         bool `json:"empty"`
}

func (p searchPage) names() []string {
	var out []string
	for _, c := range p.Content {
		out = append(out, c.Name)
	}
	return out
}

func TestSearchUsers(t *testing.T) {
	w := newWorld(t)
	acceptPerson(w, person("Marie", "Curie", "marie.curie@lab.example.org"), w.RoleA)
	acceptPerson(w, person("Pierre", "Curie", "pcurie@physics.example.org"), w.RoleA)
	acceptPerson(w, person("Ada", "Lovelace", "ada@engines.example.org"), w.RoleA)
	acceptPerson(w, person("Marie", "Turing", "mt@elsewhere.example.org"), w.RoleB)
	acceptPerson(w, person("Alan", "Turing", "alan@elsewhere.example.org"), w.RoleB)

	for _, tc := range []struct {
		name, caller, query string
		want                []string
	}{
		{"given name prefix", "super", "query=mar", []string{"Marie Curie", "Marie Turing"}},
		{"family name prefix", "super", "query=curi", []string{"Marie Curie", "Pierre Curie"}},
		{"e-mail local part", "superToken", "query=pcur", []string{"Pierre Curie"}},
		{"case-insensitive", "super", "query=TURI", []string{"Alan Turing", "Marie Turing"}},
		{"institution admin sees only their organization", "instAdmin", "query=mar", []string{"Marie Curie"}},
		{"organization token too", "orgToken", "query=turing", nil},
		{"sorted descending", "super", "query=curie&sortDirection=DESC", []string{"Pierre Curie", "Marie Curie"}},
		{"search-by-application path", "instAdmin", "query=ada", []string{"Ada Lovelace"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := "/api/v1/users/search?" + tc.query
			if tc.name == "search-by-application path" {
				path = "/api/v1/users/search-by-application?" + tc.query
			}
			rec := w.do(tc.caller, "GET", path, "")
			page := decode[searchPage](t, rec)
			if rec.Code != 200 || !slices.Equal(page.names(), tc.want) || page.TotalElements != int64(len(tc.want)) {
				t.Errorf("%s = %d %q total %d, want %q", path, rec.Code, page.names(), page.TotalElements, tc.want)
			}
		})
	}

	// Role summaries: Marie Curie is a guest of role A.
	page := decode[searchPage](t, w.do("instAdmin", "GET", "/api/v1/users/search?query=marie", ""))
	if len(page.Content) != 1 || len(page.Content[0].RoleSummaries) != 1 || page.Content[0].RoleSummaries[0].ID != w.RoleA ||
		page.Content[0].RoleSummaries[0].RoleName != "Role A" || page.Content[0].RoleSummaries[0].Authority != "GUEST" ||
		page.Content[0].RoleSummaries[0].EndDate == nil || page.Content[0].Email != "marie.curie@lab.example.org" {
		t.Errorf("role summaries: %+v", page.Content)
	}

	// Paging over organization A: the four callers on role A, the
	// institution admin and the three added people, by name.
	orgA := []string{"Ada Lovelace", "AppManager Tester", "Guest Tester", "InstAdmin Tester", "Inviter Tester", "Manager Tester", "Marie Curie", "Pierre Curie"}
	for _, tc := range []struct {
		query       string
		want        []string
		number      int
		first, last bool
	}{
		{"pageSize=3", orgA[0:3], 0, true, false},
		{"pageSize=3&pageNumber=1", orgA[3:6], 1, false, false},
		{"pageSize=3&pageNumber=2", orgA[6:8], 2, false, true},
		{"pageSize=3&sortDirection=DESC", []string{"Pierre Curie", "Marie Curie", "Manager Tester"}, 0, true, false},
	} {
		rec := w.do("instAdmin", "GET", "/api/v1/users/search?"+tc.query, "")
		page := decode[searchPage](t, rec)
		if rec.Code != 200 || !slices.Equal(page.names(), tc.want) || page.TotalElements != 8 || page.TotalPages != 3 ||
			page.Number != tc.number || page.Size != 3 || page.First != tc.first || page.Last != tc.last || page.Empty {
			t.Errorf("%s = %d %q total %d pages %d number %d first %v last %v", tc.query, rec.Code, page.names(),
				page.TotalElements, page.TotalPages, page.Number, page.First, page.Last)
		}
	}

	// Super users page through every user: the world's six and five more.
	rec := w.do("super", "GET", "/api/v1/users/search?pageSize=4&pageNumber=2", "")
	all := decode[searchPage](t, rec)
	if rec.Code != 200 || all.TotalElements != 11 || all.TotalPages != 3 || !slices.Equal(all.names(), []string{"Marie Turing", "Pierre Curie", "Super Tester"}) || !all.Last {
		t.Errorf("all users, last page = %d %q total %d", rec.Code, all.names(), all.TotalElements)
	}

	for _, bad := range []string{"pageSize=0", "pageNumber=-1", "sortDirection=UP", "sort=email", "force=perhaps"} {
		if rec := w.do("super", "GET", "/api/v1/users/search?"+bad, ""); rec.Code != 400 {
			t.Errorf("%s: %d", bad, rec.Code)
		}
	}
}

func TestDeleteUser(t *testing.T) {
	w := newWorld(t)
	guest := w.Users["guest"]
	before := len(w.Queue.Deliveries())
	if rec := w.do("manager", "DELETE", "/api/v1/users/{user:guest}", ""); rec.Code != 403 {
		t.Fatalf("manager deletes: %d", rec.Code)
	}
	rec := w.do("super", "DELETE", "/api/v1/users/{user:guest}", "")
	if rec.Code != 204 {
		t.Fatalf("delete = %d %s", rec.Code, rec.Body.String())
	}
	ctx := context.Background()
	if _, err := w.Store.GetUser(ctx, guest.ID); !domain.IsNotFound(err) {
		t.Errorf("user still there: %v", err)
	}
	if _, err := w.Store.GetUserBySub(ctx, guest.Sub); !domain.IsNotFound(err) {
		t.Errorf("sub still reserved: %v", err)
	}
	if _, err := w.Store.GetUserRole(ctx, guest.ID, w.RoleA); !domain.IsNotFound(err) {
		t.Errorf("membership still there: %v", err)
	}
	var got []string
	for _, d := range w.Queue.Deliveries()[before:] {
		got = append(got, string(d.Kind)+"@"+d.SPID)
		if d.UserID != guest.ID {
			t.Errorf("delivery for user %d", d.UserID)
		}
	}
	want := []string{"member.remove@sp-a", "member.remove@sp-b", "user.delete@sp-a", "user.delete@sp-b"}
	if !slices.Equal(got, want) {
		t.Errorf("deliveries %q, want %q", got, want)
	}
	entries, err := w.Store.ListAuditEntriesOfRole(ctx, w.RoleA)
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, e := range entries {
		if e.UserID == guest.ID && e.Action == domain.AuditDelete && e.UserEmail == "guest@example.org" {
			found = true
		}
	}
	if !found {
		t.Errorf("no DELETE audit entry for the guest: %+v", entries)
	}
	page := decode[searchPage](t, w.do("super", "GET", "/api/v1/users/search?query=guest", ""))
	if page.TotalElements != 0 {
		t.Errorf("deleted user still found: %q", page.names())
	}
	if rec := w.do("super", "DELETE", "/api/v1/users/{user:guest}", ""); rec.Code != 404 {
		t.Errorf("second delete: %d", rec.Code)
	}
}

func TestPerformanceSeed(t *testing.T) {
	w := newWorld(t)
	before := len(w.Queue.Deliveries())
	if rec := w.do("super", "PUT", "/api/v1/system/performance-seed?numberOfRole=3&numberOfUsers=40", ""); rec.Code != 403 {
		t.Fatalf("seed while not enabled: %d", rec.Code)
	}
	w.Svc.Session.PerformanceSeedAllowed = true
	for _, bad := range []string{"numberOfRole=abc", "numberOfRole=0", "numberOfUsers=-1", "numberOfUsers=1000000"} {
		rec := w.do("super", "PUT", "/api/v1/system/performance-seed?"+bad, "")
		if rec.Code != 400 || decode[map[string]any](t, rec)["status"] != float64(400) {
			t.Errorf("%s: %d", bad, rec.Code)
		}
	}
	if rec := w.do("manager", "PUT", "/api/v1/system/performance-seed?numberOfRole=3&numberOfUsers=40", ""); rec.Code != 403 {
		t.Errorf("manager seeds: %d", rec.Code)
	}
	all := decode[searchPage](t, w.do("super", "GET", "/api/v1/users/search", ""))
	if all.TotalElements != 6 {
		t.Fatalf("refused seeds wrote users: total %d", all.TotalElements)
	}

	raw, _ := json.Marshal(w.runJob(t, "super", "PUT", "/api/v1/system/performance-seed?numberOfRole=3&numberOfUsers=40"))
	var res service.SeedResult
	if err := json.Unmarshal(raw, &res); err != nil || res.Roles != 3 || res.Users != 40 || res.UserRoles != 40 {
		t.Fatalf("seed = %s", raw)
	}
	ctx := context.Background()
	members := 0
	for i := range int64(3) {
		role, err := w.Store.GetRole(ctx, res.FirstRole+i)
		if err != nil {
			t.Fatalf("seeded role %d: %v", res.FirstRole+i, err)
		}
		if len(role.ApplicationUsages) != 0 {
			t.Errorf("seeded role has applications: %+v", role.ApplicationUsages)
		}
		urs, _, err := w.Store.ListUserRolesOfRole(ctx, role.ID, "", 100)
		if err != nil {
			t.Fatal(err)
		}
		members += len(urs)
	}
	if members != 40 {
		t.Errorf("%d seeded memberships, want 40", members)
	}
	u, err := w.Store.GetUser(ctx, res.FirstUser+39)
	if err != nil {
		t.Fatalf("last seeded user: %v", err)
	}
	if byID, err := w.Store.GetUserBySub(ctx, u.Sub); err != nil || byID.ID != u.ID {
		t.Errorf("seeded user by sub: %+v %v", byID, err)
	}
	if got := len(w.Queue.Deliveries()); got != before {
		t.Errorf("the seed queued %d deliveries", got-before)
	}
	// Seeded users are searchable: by the e-mail word, by a given name and in the listing.
	page := decode[searchPage](t, w.do("super", "GET", "/api/v1/users/search?query=seed&pageSize=100", ""))
	if page.TotalElements != 40 || len(page.Content) != 40 {
		t.Errorf("seed finds %d users (%d on the page), want 40", page.TotalElements, len(page.Content))
	}
	page = decode[searchPage](t, w.do("super", "GET", "/api/v1/users/search?query=anna%20jansen", ""))
	if page.TotalElements != 1 || page.Content[0].Name != "Anna Jansen" || len(page.Content[0].RoleSummaries) != 1 {
		t.Errorf("anna jansen: %+v", page)
	}
	all = decode[searchPage](t, w.do("super", "GET", "/api/v1/users/search", ""))
	if all.TotalElements != 46 {
		t.Errorf("listing total after seeding = %d, want 46", all.TotalElements)
	}
}
