package web

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/edu-invite/invite/shared/auth"
	"github.com/edu-invite/invite/shared/domain"
	"github.com/edu-invite/invite/shared/dynamo"
	"github.com/edu-invite/invite/shared/service"
	"github.com/edu-invite/invite/shared/testkit"
)

// serveInvite serves the invite form (GET) or posts it (a target with a
// query and method POST: the query is the form) as pr, and answers the
// status, the HTML and, with a counter, the DynamoDB requests it made.
func serveInvite(pages *Pages, counter *countingHTTP, pr *auth.Principal, method, target string) (int, string, int64) {
	var r *http.Request
	if path, form, ok := strings.Cut(target, "?"); ok && method == http.MethodPost {
		r = httptest.NewRequest(method, path, strings.NewReader(form))
		r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	} else {
		r = httptest.NewRequest(method, target, nil)
	}
	r = r.WithContext(context.WithValue(r.Context(), visitKey{}, &visit{principal: pr, acceptLanguage: "en"}))
	w := httptest.NewRecorder()
	var before int64
	if counter != nil {
		before = counter.n.Load()
	}
	if method == http.MethodPost {
		pages.consoleInvite(w, r)
	} else {
		pages.consoleInviteForm(w, r)
	}
	var n int64
	if counter != nil {
		n = counter.n.Load() - before
	}
	return w.Code, w.Body.String(), n
}

var offeredRole = regexp.MustCompile(`<input type="checkbox" name="role" value="(\d+)"( checked)?>`)

// offeredRoles are the role ids the form offers, and which are checked.
func offeredRoles(body string) (ids []string, checked map[string]bool) {
	checked = map[string]bool{}
	for _, m := range offeredRole.FindAllStringSubmatch(body, -1) {
		ids = append(ids, m[1])
		if m[2] != "" {
			checked[m[1]] = true
		}
	}
	return ids, checked
}

// TestInviteFormCostDoesNotGrowWithRoles: the invite form (its first view,
// a view with a chosen role, a search and a next page of roles) makes the
// same DynamoDB requests, and offers at most one page of roles, when the
// caller's scope holds six times as many roles: for a super user (every
// role), an institution admin (the organization's roles) and an inviter
// (the roles they hold).
func TestInviteFormCostDoesNotGrowWithRoles(t *testing.T) {
	f := newConsoleFixture(t, 60, 60) // more roles than two pages of the form
	ctx := context.Background()
	const org = "performance-seed"
	instAdmin := &auth.Principal{Kind: auth.KindPerson, Name: "admin@example.org", OrganizationGUID: org,
		User:   &domain.User{ID: 990001, InstitutionAdmin: true, OrganizationGUID: org},
		Person: &auth.Person{Sub: "admin", Name: "Admin", Email: "admin@example.org"}}
	inviter := &auth.Principal{Kind: auth.KindPerson, Name: "inviter@example.org",
		Memberships: map[int64]domain.Authority{f.roleID: domain.Inviter, f.roleID + 1: domain.Manager},
		Person:      &auth.Person{Sub: "inviter", Name: "Inviter", Email: "inviter@example.org"}}
	first := fmt.Sprint(f.roleID)
	views := []struct{ method, target string }{
		{http.MethodGet, "/console/invite"},
		{http.MethodGet, "/console/invite?role=" + first},
		{http.MethodPost, "/console/invite?searchroles=1&q=performance&role=" + first},
		{http.MethodPost, "/console/invite?page=2&role=" + first},
	}
	callers := []struct {
		name string
		pr   *auth.Principal
	}{{"super", f.super}, {"instAdmin", instAdmin}, {"inviter", inviter}}
	measure := func() map[string]int64 {
		out := map[string]int64{}
		for _, c := range callers {
			for _, v := range views {
				status, body, n := serveInvite(f.pages, f.counter, c.pr, v.method, v.target)
				key := c.name + " " + v.method + " " + v.target
				if status != http.StatusOK {
					t.Fatalf("%s = %d", key, status)
				}
				ids, checked := offeredRoles(body)
				if len(ids) == 0 || len(ids) > 25+1 {
					t.Errorf("%s offers %d roles, want 1 to a page of 25 and the chosen one", key, len(ids))
				}
				if strings.Contains(v.target, "role=") && !checked[first] {
					t.Errorf("%s does not keep the chosen role %s", key, first)
				}
				if n > 5 {
					t.Errorf("%s made %d DynamoDB requests, at most 5", key, n)
				}
				out[key] = n
			}
		}
		return out
	}
	small := measure()
	// 300 more roles, in the seed's organization and another one.
	var more []domain.Role
	for i := range int64(300) {
		name := fmt.Sprintf("Performance extra %d", i)
		more = append(more, domain.Role{ID: f.roleID + 10_000 + i, Name: name, ShortName: domain.ShortNameOf(name),
			Description: "Seeded to grow the scope", OrganizationGUID: []string{org, "other-org"}[i%2],
			Auditable: domain.Auditable{CreatedAt: time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)}})
	}
	if err := f.pages.cfg.Service.Store.Seed(ctx, domain.Seed{Roles: more}); err != nil {
		t.Fatal(err)
	}
	large := measure()
	// A posted form naming many roles as chosen reads at most
	// service.MaxChosenRoles of them: it costs what one chosen role costs.
	many := url.Values{"searchroles": {"1"}}
	for i := range int64(3 * service.MaxChosenRoles / 2) {
		many.Add("role", fmt.Sprint(f.roleID+i))
	}
	one := "/console/invite?searchroles=1&role=" + first
	_, _, oneCost := serveInvite(f.pages, f.counter, f.super, http.MethodPost, one)
	status, body, manyCost := serveInvite(f.pages, f.counter, f.super, http.MethodPost, "/console/invite?"+many.Encode())
	if _, checked := offeredRoles(body); status != http.StatusOK || len(checked) == 0 || len(checked) > service.MaxChosenRoles || manyCost != oneCost {
		t.Errorf("%d chosen roles: status %d, %d kept checked, %d requests (one chosen: %d)", len(many["role"]), status, len(checked), manyCost, oneCost)
	}
	for key, n := range large {
		t.Logf("%s: %d requests with 60 roles, %d with 360", key, small[key], n)
		if n != small[key] {
			t.Errorf("%s: %d requests with 60 roles, %d with 360", key, small[key], n)
		}
	}
}

// TestInviteFormRoleSearch: a search narrows the roles the form offers to
// those matching it that the caller may invite to; the chosen roles stay
// offered and checked, and what was typed stays, without inviting anyone.
// A role of another organization, posted as chosen, is not offered, and
// sending it is refused as a missing role.
func TestInviteFormRoleSearch(t *testing.T) {
	now := time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC)
	svc, _ := testkit.NewService(t, func() time.Time { return now })
	store := svc.Store.(*dynamo.Store)
	ctx := context.Background()
	root := &auth.Principal{Kind: auth.KindPerson, SuperUser: true, Name: "root", Person: &auth.Person{Name: "Root"}}
	role := func(name, org string) string {
		r, err := svc.CreateRole(ctx, root, service.RoleInput{Name: name, OrganizationGUID: org, DefaultExpiryDays: 30,
			ApplicationUsages: []service.ApplicationUsageInput{{ManageID: "lms"}}})
		if err != nil {
			t.Fatal(err)
		}
		return fmt.Sprint(r.ID)
	}
	chem, phys, lib, chemB := role("Chemistry lab", "org-a"), role("Physics lab", "org-a"), role("Library desk", "org-a"), role("Chemistry lab B", "org-b")
	pages, err := New(Config{Service: svc, Authenticator: &auth.Authenticator{}, Sessions: store, Clock: func() time.Time { return now }})
	if err != nil {
		t.Fatal(err)
	}
	admin := &auth.Principal{Kind: auth.KindPerson, Name: "admin@example.org", OrganizationGUID: "org-a",
		User:   &domain.User{ID: 900, InstitutionAdmin: true, OrganizationGUID: "org-a"},
		Person: &auth.Person{Sub: "admin", Name: "Admin", Email: "admin@example.org"}}
	manager := &auth.Principal{Kind: auth.KindPerson, Name: "manager@example.org",
		Memberships: map[int64]domain.Authority{mustID(t, phys): domain.Manager, mustID(t, lib): domain.Guest},
		Person:      &auth.Person{Sub: "manager", Name: "Manager", Email: "manager@example.org"}}
	expiry := now.AddDate(0, 1, 0).Format(time.DateOnly)
	search := func(q string, chosen ...string) string {
		form := url.Values{"searchroles": {"1"}, "q": {q}, "role": chosen, "recipients": {"typed@example.org"},
			"message": {"Welcome aboard"}, "expiry": {expiry}, "authority": {"GUEST"}}
		return "/console/invite?" + form.Encode()
	}
	cases := []struct {
		name        string
		pr          *auth.Principal
		target      string
		offered     []string // in order
		checked     []string
		searchError bool
	}{
		{"admin, no search", admin, "/console/invite", []string{chem, lib, phys}, nil, false},
		{"admin, a word narrows", admin, search("chem"), []string{chem}, nil, false},
		{"admin, chosen kept beside the search", admin, search("chem", phys), []string{phys, chem}, []string{phys}, false},
		{"admin, chosen is also found", admin, search("lab", phys), []string{phys, chem}, []string{phys}, false},
		{"admin, another organization's role is missing", admin, search("chemistry", chemB), []string{chem}, nil, false},
		{"admin, nothing matches", admin, search("astronomy", lib), []string{lib}, []string{lib}, true},
		{"manager, held roles only", manager, search("lab"), []string{phys}, nil, false},
		{"manager, a held guest role is not offered", manager, search("library"), nil, nil, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			method := http.MethodGet
			if strings.Contains(c.target, "searchroles") {
				method = http.MethodPost
			}
			status, body, _ := serveInvite(pages, nil, c.pr, method, c.target)
			if status != http.StatusOK {
				t.Fatalf("status %d", status)
			}
			ids, checked := offeredRoles(body)
			if strings.Join(ids, ",") != strings.Join(c.offered, ",") {
				t.Errorf("offered %v, want %v", ids, c.offered)
			}
			if len(checked) != len(c.checked) {
				t.Errorf("checked %v, want %v", checked, c.checked)
			}
			for _, id := range c.checked {
				if !checked[id] {
					t.Errorf("role %s is not kept checked", id)
				}
			}
			if got := strings.Contains(body, `id="q-error"`); got != c.searchError {
				t.Errorf("message next to the search field: %v, want %v", got, c.searchError)
			}
			if method == http.MethodPost {
				q, _ := url.ParseQuery(strings.SplitN(c.target, "?", 2)[1])
				for _, kept := range []string{">typed@example.org</textarea>", ">Welcome aboard</textarea>", `value="` + q.Get("q") + `"`, `value="` + expiry + `"`} {
					if !strings.Contains(body, kept) {
						t.Errorf("the typed input %q is not kept", kept)
					}
				}
			}
		})
	}
	// Nobody was invited by a search.
	for _, id := range []string{chem, phys, lib, chemB} {
		if invs, err := store.ListOpenInvitationsOfRole(ctx, mustID(t, id)); err != nil || len(invs) != 0 {
			t.Errorf("role %s: %d invitations after searches (%v)", id, len(invs), err)
		}
	}
	// Sending a forged role of another organization answers as missing.
	form := url.Values{"role": {chemB}, "authority": {"GUEST"}, "recipients": {"forged@example.org"}, "expiry": {expiry}, "nomail": {"1"}}
	status, body, _ := serveInvite(pages, nil, admin, http.MethodPost, "/console/invite?"+form.Encode())
	if status != http.StatusBadRequest || !strings.Contains(body, `id="roles-error"`) {
		t.Errorf("a forged role of another organization: status %d, roles error %v; want 400 next to the roles", status, strings.Contains(body, `id="roles-error"`))
	}
	if invs, _ := store.ListOpenInvitationsOfRole(ctx, mustID(t, chemB)); len(invs) != 0 {
		t.Errorf("the forged role got %d invitations", len(invs))
	}
	// A chosen role from a search is sent.
	form = url.Values{"role": {phys}, "authority": {"GUEST"}, "recipients": {"found@example.org"}, "expiry": {expiry}, "nomail": {"1"}, "q": {"chem"}}
	if status, _, _ := serveInvite(pages, nil, admin, http.MethodPost, "/console/invite?"+form.Encode()); status != http.StatusCreated {
		t.Errorf("sending a chosen role = %d, want 201", status)
	}
}

func mustID(t *testing.T, s string) int64 {
	t.Helper()
	var id int64
	if _, err := fmt.Sscan(s, &id); err != nil {
		t.Fatal(err)
	}
	return id
}

// TestInviteFormReadsNoMemberCounts: the invite form shows role names, not
// member counts, so it reads no counters: per kind of caller the page makes
// exactly the requests of its role listing and chosen roles (a super user:
// the listing's Query and its BatchGetItem of the page's roles; an
// inviter: the held roles by id; an institution admin who holds a role of
// another organization: those and the held role), one more with a chosen
// role (read by id).
func TestInviteFormReadsNoMemberCounts(t *testing.T) {
	f := newConsoleFixture(t, 30, 30)
	const org = "performance-seed"
	instAdmin := &auth.Principal{Kind: auth.KindPerson, Name: "admin@example.org", OrganizationGUID: org,
		Memberships: map[int64]domain.Authority{f.roleID + 1_000_000: domain.Inviter},
		User:        &domain.User{ID: 990001, InstitutionAdmin: true, OrganizationGUID: org},
		Person:      &auth.Person{Sub: "admin", Name: "Admin", Email: "admin@example.org"}}
	elsewhere := domain.Role{ID: f.roleID + 1_000_000, Name: "Held elsewhere", ShortName: "held-elsewhere", OrganizationGUID: "other-org",
		Auditable: domain.Auditable{CreatedAt: time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)}}
	if err := f.pages.cfg.Service.Store.Seed(context.Background(), domain.Seed{Roles: []domain.Role{elsewhere}}); err != nil {
		t.Fatal(err)
	}
	inviter := &auth.Principal{Kind: auth.KindPerson, Name: "inviter@example.org",
		Memberships: map[int64]domain.Authority{f.roleID: domain.Inviter, f.roleID + 1: domain.Manager, f.roleID + 2: domain.Guest},
		Person:      &auth.Person{Sub: "inviter", Name: "Inviter", Email: "inviter@example.org"}}
	chosen := fmt.Sprint("/console/invite?role=", f.roleID)
	cases := []struct {
		name     string
		pr       *auth.Principal
		target   string
		requests int64
		offered  int
	}{
		{"super user", f.super, "/console/invite", 2, 25},
		{"super user, a chosen role", f.super, chosen, 3, 25},
		{"inviter", inviter, "/console/invite", 1, 2},
		{"inviter, a chosen role", inviter, chosen, 2, 2},
		{"institution admin holding a role elsewhere", instAdmin, "/console/invite", 3, 25},
	}
	for _, c := range cases {
		status, body, n := serveInvite(f.pages, f.counter, c.pr, http.MethodGet, c.target)
		ids, _ := offeredRoles(body)
		if status != http.StatusOK || len(ids) != c.offered {
			t.Errorf("%s: status %d, %d roles offered; want 200 and %d", c.name, status, len(ids), c.offered)
		}
		if n != c.requests {
			t.Errorf("%s: %d DynamoDB requests, want %d", c.name, n, c.requests)
		}
	}
}

// TestInviteFormEnter: Enter in a one-line field posts the form with its
// default button (enter): it sends the invitation, unless the search field
// holds another query than the one the form showed, which it searches
// (the form again, as typed, nobody invited).
func TestInviteFormEnter(t *testing.T) {
	now := time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC)
	svc, _ := testkit.NewService(t, func() time.Time { return now })
	store := svc.Store.(*dynamo.Store)
	ctx := context.Background()
	root := &auth.Principal{Kind: auth.KindPerson, SuperUser: true, Name: "root", Person: &auth.Person{Name: "Root"}}
	r, err := svc.CreateRole(ctx, root, service.RoleInput{Name: "Enter lab", OrganizationGUID: "org-a", DefaultExpiryDays: 30,
		ApplicationUsages: []service.ApplicationUsageInput{{ManageID: "lms"}}})
	if err != nil {
		t.Fatal(err)
	}
	pages, err := New(Config{Service: svc, Authenticator: &auth.Authenticator{}, Sessions: store, Clock: func() time.Time { return now }})
	if err != nil {
		t.Fatal(err)
	}
	expiry := now.AddDate(0, 1, 0).Format(time.DateOnly)
	cases := []struct {
		name, q, searched, recipient string
		status                       int
		invited                      bool
	}{
		{"Enter with the query shown sends", "", "", "first.enter@example.org", http.StatusCreated, true},
		{"Enter with the search shown sends", "enter", "enter", "second.enter@example.org", http.StatusCreated, true},
		{"Enter after typing a query searches", "lab", "", "third.enter@example.org", http.StatusOK, false},
		{"Enter after clearing the query searches", "", "lab", "fourth.enter@example.org", http.StatusOK, false},
	}
	for _, c := range cases {
		form := url.Values{"enter": {"1"}, "q": {c.q}, "searched": {c.searched}, "role": {fmt.Sprint(r.ID)}, "authority": {"GUEST"},
			"recipients": {c.recipient}, "expiry": {expiry}, "nomail": {"1"}}
		status, body, _ := serveInvite(pages, nil, root, http.MethodPost, "/console/invite?"+form.Encode())
		if status != c.status {
			t.Errorf("%s: status %d, want %d", c.name, status, c.status)
		}
		invs, err := store.ListInvitationsOfPerson(ctx, c.recipient)
		if err != nil || (len(invs) == 1) != c.invited {
			t.Errorf("%s: %d invitations of %s (%v), want invited %v", c.name, len(invs), c.recipient, err, c.invited)
		}
		if !c.invited && !strings.Contains(body, ">"+c.recipient+"</textarea>") {
			t.Errorf("%s: the typed recipient is not kept", c.name)
		}
	}
}
