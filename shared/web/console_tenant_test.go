package web

import (
	"context"
	"fmt"
	"maps"
	"net/http"
	"net/http/httptest"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/edu-invite/invite/shared/auth"
	"github.com/edu-invite/invite/shared/config"
	"github.com/edu-invite/invite/shared/domain"
	"github.com/edu-invite/invite/shared/dynamo"
	"github.com/edu-invite/invite/shared/scimprobe"
	"github.com/edu-invite/invite/shared/service"
	"github.com/edu-invite/invite/shared/testkit"
)

// consoleTenantRule is how one console page or form keeps organizations
// apart (the kinds of shared/httpapi's tenantRule):
//
//   - object: the path (or the form, with form) names an object; {obj}
//     stands for it. Every person of organization A gets the same status
//     for organization B's object as for a missing one, and is refused
//     (or, where both succeed, sees nothing of B); ownCaller gets
//     ownStatus on A's object (ownObj names which one).
//   - listing: the page lists what the person may see, never B's.
//   - superOnly: only super users; every person of A is refused.
//   - none: no organization's data; reason says why.
type consoleTenantRule struct {
	kind, object, form, reason string
	path                       string // the path with {obj}; default: the pattern's parameter is the object
	ownCaller                  string
	ownStatus                  int
	ownObj                     string
	// createFresh: the form creates an object by the id it names; for B's
	// id it answers as a read of a missing one (404, or 403 to people who
	// may not create), never creating.
	createFresh bool
}

func cObject(object, ownCaller string, ownStatus int) consoleTenantRule {
	return consoleTenantRule{kind: "object", object: object, ownCaller: ownCaller, ownStatus: ownStatus}
}
func (r consoleTenantRule) withForm(f string) consoleTenantRule { r.form = f; return r }
func (r consoleTenantRule) using(own string) consoleTenantRule  { r.ownObj = own; return r }
func (r consoleTenantRule) creating() consoleTenantRule         { r.createFresh = true; return r }
func cListing(ownCaller string) consoleTenantRule {
	return consoleTenantRule{kind: "listing", ownCaller: ownCaller, ownStatus: http.StatusOK}
}
func cNone(reason string) consoleTenantRule { return consoleTenantRule{kind: "none", reason: reason} }

var cSuperOnly = consoleTenantRule{kind: "superOnly"}

// consoleTenantRules is the table of tenant rules, by route pattern: a
// page or form added without a line here fails TestConsoleTenantIsolation.
func consoleTenantRules() map[string]consoleTenantRule {
	const public = "a public page of the guest's journey or sign-in: it shows the visitor's own things only"
	return map[string]consoleTenantRule{
		"GET /{$}":                cNone(public),
		"GET /invitation/accept":  cNone("the link's secret is the credential"),
		"POST /invitation/accept": cNone("the link's secret is the credential"),
		"GET /my/welcome":         cNone(public),
		"GET /login":              cNone(public),
		"GET /login/callback":     cNone(public),
		"POST /logout":            cNone(public),
		"POST /login/backchannel-logout": cNone("the identity provider's signed logout token names the person; " +
			"it ends only that person's sessions"),
		"GET /static/":             cNone("embedded CSS and script"),
		"GET /api/v1/users/login":  cNone(public),
		"GET /api/v1/users/logout": cNone(public),
		"GET /api/v1/csrf":         cNone("a fixed token"),
		"POST /api/v1/users/error": cNone("a client's error report"),
		"GET /api/v1/disclaimer":   cNone("a fixed text"),

		"GET /console":           cNone("what the person may do: their own navigation"),
		"GET /console/roles":     cListing("inviter"),
		"GET /console/roles/new": cListing("instAdmin"),
		"POST /console/roles/new": cNone("a role's organization is the person's own and its applications are chosen " +
			"by position from the organization's list (ApplicationChoicesFor); the service refuses another's (TestRoleUsesNoApplicationOfAnotherOrganization)"),
		"GET /console/roles/{id}":                 cObject("role", "inviter", 200),
		"POST /console/roles/{id}":                cObject("role", "inviter", 200),
		"GET /console/roles/{id}/edit":            cObject("role", "manager", 200),
		"POST /console/roles/{id}/edit":           cObject("role", "manager", 303).withForm("name=Renamed&days=30"),
		"GET /console/roles/{id}/delete":          cObject("role", "instAdmin", 200),
		"POST /console/roles/{id}/delete":         cObject("role", "instAdmin", 303).using("spareRole"),
		"GET /console/invite":                     cListing("inviter"),
		"POST /console/invite":                    cObject("role", "inviter", 201).withForm("role={obj}&authority=GUEST&recipients=t@example.org&nomail=1&expiry=" + worldDay(30)),
		"POST /console/memberships/{id}/end-date": cObject("userRole", "instAdmin", 303).withForm("endDate=" + worldDay(20)),
		"POST /console/memberships/{id}/remove":   cObject("userRole", "instAdmin", 303).using("spareUserRole"),
		"POST /console/invitations/{id}/resend":   cObject("invitation", "inviter", 200),
		"POST /console/invitations/{id}/delete":   cObject("invitation", "inviter", 303).using("spareInvitation"),
		"GET /console/people":                     cListing("instAdmin"),
		"POST /console/people":                    cListing("instAdmin"),
		"GET /console/people/{id}":                cObject("user", "instAdmin", 200),
		"GET /console/admins":                     cObject("org", "instAdmin", 200).withPath("/console/admins?org={obj}"),
		"POST /console/admins/invite":             cObject("org", "instAdmin", 201).withForm("email=new-admin@example.org&org={obj}"),
		// No own call: the world's institution admin was not made by
		// invitation, so nobody removes them.
		"POST /console/admins/{id}/remove": cObject("user", "", 0),
		"GET /console/operations":          cSuperOnly,
		"POST /console/operations/replay":  cSuperOnly,
		"POST /console/operations/discard": cSuperOnly,

		"POST /console/operations/reconcile":     cSuperOnly,
		"GET /console/operations/reconcile/{id}": cSuperOnly,

		"GET /console/audit":               cObject("role", "manager", 200).withPath("/console/audit?role={obj}"),
		"POST /console/audit":              cObject("role", "manager", 200).withForm("role={obj}"),
		"GET /console/tokens":              cListing("instAdmin"),
		"POST /console/tokens":             cObject("org", "instAdmin", 201).withForm("description=t&organization={obj}"),
		"POST /console/tokens/{id}/delete": cObject("token", "instAdmin", 303),
		"GET /console/applications":        cListing("instAdmin"),
		"GET /console/connections/{id}":    cObject("connection", "instAdmin", 200),
		"GET /console/applications/new":    cListing("instAdmin"),
		"POST /console/applications/new": cObject("application", "instAdmin", 303).using("newApplication").creating().
			withForm("manageId={obj}&manageType=SAML20_SP&name=New&landingPage=https://new.example.org"),
		"GET /console/applications/{id}/edit":    cObject("application", "instAdmin", 200),
		"POST /console/applications/{id}/edit":   cObject("application", "instAdmin", 303).withForm("manageType=SAML20_SP&name=Renamed"),
		"GET /console/applications/{id}/delete":  cObject("application", "instAdmin", 200).using("spareApplication"),
		"POST /console/applications/{id}/delete": cObject("application", "instAdmin", 303).using("spareApplication"),
		"GET /console/connections/new":           cListing("instAdmin"),
		"POST /console/connections/new": cObject("connection", "instAdmin", 303).using("newConnection").creating().
			withForm("id={obj}&baseUrl=https://new.example.org/scim&method=bearer&secret=console-secret-value"),
		"GET /console/connections/{id}/edit":    cObject("connection", "instAdmin", 200),
		"POST /console/connections/{id}/edit":   cObject("connection", "instAdmin", 303).withForm("baseUrl=https://a.example.org/scim&method=bearer&secret=console-secret-value"),
		"GET /console/connections/{id}/delete":  cObject("connection", "instAdmin", 200).using("spareConnection"),
		"POST /console/connections/{id}/delete": cObject("connection", "instAdmin", 303).using("spareConnection"),
		"POST /console/connections/{id}/test":   cObject("connection", "instAdmin", 200),
		// Organizations' names are every organization's to read: only
		// super users set them.
		"GET /console/organizations":              cSuperOnly,
		"POST /console/organizations":             cSuperOnly,
		"GET /console/organizations/{guid}/edit":  cSuperOnly,
		"POST /console/organizations/{guid}/edit": cSuperOnly,
	}
}

func (r consoleTenantRule) withPath(p string) consoleTenantRule { r.path = p; return r }

var consoleWorldNow = time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC)

func worldDay(days int) string { return consoleWorldNow.AddDate(0, 0, days).Format(time.DateOnly) }

// consoleTenantCallers are the people of organization A.
var consoleTenantCallers = []string{"instAdmin", "appManager", "manager", "inviter", "guest"}

type consoleTenantWorld struct {
	pages                 *Pages
	people                map[string]*auth.Principal
	own, foreign, missing map[string]string
}

func newConsoleTenantWorld(t *testing.T) *consoleTenantWorld {
	t.Helper()
	clock := func() time.Time { return consoleWorldNow }
	svc, _ := testkit.NewService(t, clock)
	store := svc.Store.(*dynamo.Store)
	ctx := context.Background()
	root := &auth.Principal{Kind: auth.KindAPIToken, SuperUser: true, Name: "root"}
	save := func(conn config.ProvisioningDoc, app config.ApplicationDoc) {
		if conn.ID != "" {
			if err := store.SaveConnection(ctx, conn, true, config.Change{Kind: config.KindConnection, ID: conn.ID, Action: config.ActionImport, By: "t", At: consoleWorldNow}); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := store.SaveApplication(ctx, app, true, config.Change{Kind: config.KindApplication, ID: app.ManageID, Action: config.ActionImport, By: "t", At: consoleWorldNow}); err != nil {
			t.Fatal(err)
		}
	}
	conn := func(id, org string) config.ProvisioningDoc {
		return config.ProvisioningDoc{ID: id, BaseURL: "https://" + id + ".example.org/scim", OrganizationGUID: org, Auth: config.AuthDoc{Method: "bearer", Token: "env:NONE"}}
	}
	save(conn("sp-a", "org-a"), config.ApplicationDoc{ManageID: "wiki", ManageType: "SAML20_SP", OrganizationGUID: "org-a", Provisionings: []string{"sp-a"}})
	save(conn("sp-borg", "org-b"), config.ApplicationDoc{ManageID: "b-app", ManageType: "SAML20_SP", OrganizationGUID: "org-b", Provisionings: []string{"sp-borg"}})
	save(conn("sp-spare", "org-a"), config.ApplicationDoc{ManageID: "spare-app", ManageType: "SAML20_SP", OrganizationGUID: "org-a"})
	save(config.ProvisioningDoc{}, config.ApplicationDoc{ManageID: "lms", ManageType: "OIDC10_RP"})
	live := config.NewLive(store, nil)
	if err := live.Load(ctx); err != nil {
		t.Fatal(err)
	}
	vault := testkit.NewMemoryVault()
	svc.Registry = live
	svc.RegistryAdmin = &service.RegistryAdmin{Store: store, Vault: vault, Secrets: vault, Prober: &scimprobe.Prober{Timeout: time.Second}, Invalidate: live.Invalidate}

	role := func(name, org, app string) int64 {
		r, err := svc.CreateRole(ctx, root, service.RoleInput{Name: name, OrganizationGUID: org, DefaultExpiryDays: 365,
			ApplicationUsages: []service.ApplicationUsageInput{{ManageID: app}}})
		if err != nil {
			t.Fatal(err)
		}
		return r.ID
	}
	roleA, roleB := role("Role A", "org-a", "wiki"), role("Role B", "org-b", "b-app")
	expires := consoleWorldNow.Add(14 * 24 * time.Hour)
	person := func(name string) auth.Person {
		return auth.Person{Sub: "urn:collab:person:example.org:" + name, Email: name + "@example.org", Name: name + " Tester",
			EduPersonPrincipalName: name + "@example.org"}
	}
	w := &consoleTenantWorld{people: map[string]*auth.Principal{}}
	userRoles := map[string]int64{}
	for _, m := range []struct {
		name      string
		authority domain.Authority
	}{{"appManager", domain.ApplicationManager}, {"manager", domain.Manager}, {"inviter", domain.Inviter}, {"guest", domain.Guest}, {"instAdmin", domain.Guest}} {
		res := testkit.InviteAndAccept(t, svc, root, person(m.name), roleA, m.authority, expires)
		u := res.User
		pr := &auth.Principal{Kind: auth.KindPerson, Name: u.Email, Person: &auth.Person{Name: u.Name, Email: u.Email, Sub: u.Sub}, User: &u,
			Memberships: map[int64]domain.Authority{roleA: m.authority}}
		if m.name == "instAdmin" {
			u.InstitutionAdmin, u.OrganizationGUID = true, "org-a"
			pr.OrganizationGUID = "org-a"
		}
		w.people[m.name] = pr
		userRoles[m.name] = res.UserRoles[0].ID
	}
	bGuest := testkit.InviteAndAccept(t, svc, root, person("bguest"), roleB, domain.Guest, expires)
	invA, _ := testkit.Invite(t, svc, root, "open@example.org", roleA, domain.Guest, expires)
	invB, _ := testkit.Invite(t, svc, root, "openb@example.org", roleB, domain.Guest, expires)
	spareInv, _ := testkit.Invite(t, svc, root, "spare@example.org", roleA, domain.Guest, expires)
	spareMember := testkit.InviteAndAccept(t, svc, root, person("spareguest"), roleA, domain.Guest, expires)
	for _, tok := range []domain.APIToken{{ID: 2, OrganizationGUID: "org-a"}, {ID: 3, OrganizationGUID: "org-b"}} {
		tok.HashedValue, tok.Description, tok.CreatedAt = auth.HashToken(fmt.Sprintf("token-%d-0123456789abcdef0123456789abcdef", tok.ID)), "t", consoleWorldNow
		if err := store.CreateAPIToken(ctx, tok); err != nil {
			t.Fatal(err)
		}
	}
	pages, err := New(Config{Service: svc, Authenticator: &auth.Authenticator{}, Sessions: store, Clock: clock})
	if err != nil {
		t.Fatal(err)
	}
	w.pages = pages
	w.own = map[string]string{"role": itoa(roleA), "user": itoa(w.people["guest"].User.ID), "userRole": itoa(userRoles["guest"]),
		"invitation": itoa(invA), "token": "2", "connection": "sp-a", "application": "wiki", "org": "org-a",
		"spareRole": itoa(role("Spare", "org-a", "wiki")), "spareUserRole": itoa(spareMember.UserRoles[0].ID), "spareInvitation": itoa(spareInv),
		"spareApplication": "spare-app", "spareConnection": "sp-spare", "newApplication": "a-new-app", "newConnection": "sp-a-new"}
	w.foreign = map[string]string{"role": itoa(roleB), "user": itoa(bGuest.User.ID), "userRole": itoa(bGuest.UserRoles[0].ID),
		"invitation": itoa(invB), "token": "3", "connection": "sp-borg", "application": "b-app", "org": "org-b"}
	w.missing = map[string]string{"role": "999999", "user": "999998", "userRole": "999997", "invitation": "999996", "token": "999995",
		"connection": "sp-missing", "application": "no-such-app", "org": "org-missing"}
	return w
}

func itoa(n int64) string { return fmt.Sprint(n) }

// serve sends a request to the console as a person, through the pages' own
// route table (with the visit a session would have made).
func (w *consoleTenantWorld) serve(pr *auth.Principal, method, path, form string) *httptest.ResponseRecorder {
	mux := http.NewServeMux()
	for _, rt := range w.pages.routes() {
		mux.Handle(rt.pattern, rt.handler)
	}
	var r *http.Request
	if method == http.MethodPost {
		r = httptest.NewRequest(method, path, strings.NewReader(form))
		r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	} else {
		r = httptest.NewRequest(method, path, nil)
	}
	r = r.WithContext(context.WithValue(r.Context(), visitKey{}, &visit{principal: pr, acceptLanguage: "en"}))
	rec := httptest.NewRecorder()
	mux.ServeHTTP(rec, r)
	return rec
}

// TestConsoleTenantIsolation runs every page and form of the console as
// every kind of person of organization A against organization B's
// objects: refused as for a missing object, and nothing of B shown; the
// same on A's own objects succeeds. A page or form without a rule fails.
func TestConsoleTenantIsolation(t *testing.T) {
	rules := consoleTenantRules()
	w := newConsoleTenantWorld(t)
	var patterns []string
	for _, rt := range w.pages.routes() {
		patterns = append(patterns, rt.pattern)
		if _, ok := rules[rt.pattern]; !ok {
			t.Errorf("console route %s has no tenant rule: add it to consoleTenantRules", rt.pattern)
		}
	}
	for _, p := range slices.Sorted(maps.Keys(rules)) {
		if !slices.Contains(patterns, p) {
			t.Errorf("consoleTenantRules has %s, which the console does not serve", p)
		}
	}
	markers := []string{"Role B", "bguest", "openb@", "b-app", "sp-borg", "org-b"}
	param := regexp.MustCompile(`\{[^}]+\}`)
	pathOf := func(rule consoleTenantRule, pattern, obj string) string {
		_, path, _ := strings.Cut(pattern, " ")
		if rule.path != "" {
			path = rule.path
		}
		return strings.ReplaceAll(param.ReplaceAllString(path, "{obj}"), "{obj}", obj)
	}
	for _, pattern := range patterns {
		rule := rules[pattern]
		method, path, _ := strings.Cut(pattern, " ")
		switch rule.kind {
		case "object":
			for _, caller := range consoleTenantCallers {
				pr := w.people[caller]
				fo, mo := w.foreign[rule.object], w.missing[rule.object]
				foreign := w.serve(pr, method, pathOf(rule, pattern, fo), strings.ReplaceAll(rule.form, "{obj}", fo))
				if rule.createFresh {
					if foreign.Code != http.StatusNotFound && foreign.Code != http.StatusForbidden {
						t.Errorf("%s as %s: creating with B's %s id answers %d, want 404 (403 to people who may not)", pattern, caller, rule.object, foreign.Code)
					}
				} else {
					missing := w.serve(pr, method, pathOf(rule, pattern, mo), strings.ReplaceAll(rule.form, "{obj}", mo))
					if foreign.Code != missing.Code {
						t.Errorf("%s as %s: B's %s answers %d, a missing one %d", pattern, caller, rule.object, foreign.Code, missing.Code)
					}
				}
				// The id the person sent may come back (in the address of a
				// language switch); nothing else of B may.
				if m := firstMarker(strings.ReplaceAll(foreign.Body.String(), fo, "#"), markers); m != "" {
					t.Errorf("%s as %s: B's %s shows %q", pattern, caller, rule.object, m)
				}
				if location := foreign.Header().Get("Location"); strings.Contains(location, fo) {
					t.Errorf("%s as %s: B's %s sends to %s", pattern, caller, rule.object, location)
				}
			}
		case "listing":
			for _, caller := range consoleTenantCallers {
				rec := w.serve(w.people[caller], method, path, "")
				if m := firstMarker(rec.Body.String(), markers); m != "" {
					t.Errorf("%s as %s shows something of organization B (%q)", pattern, caller, m)
				}
			}
		case "superOnly":
			for _, caller := range consoleTenantCallers {
				if rec := w.serve(w.people[caller], method, path, ""); rec.Code != http.StatusForbidden {
					t.Errorf("%s as %s: %d, want 403", pattern, caller, rec.Code)
				}
			}
		}
	}
	// A's own objects: reads, then changes, then deletions.
	order := func(p string) int {
		switch {
		case strings.HasPrefix(p, "GET "):
			return 0
		case strings.Contains(p, "delete") || strings.Contains(p, "remove"):
			return 2
		}
		return 1
	}
	slices.SortStableFunc(patterns, func(a, b string) int { return order(a) - order(b) })
	for _, pattern := range patterns {
		rule := rules[pattern]
		if rule.ownCaller == "" {
			continue
		}
		method, path, _ := strings.Cut(pattern, " ")
		form := rule.form
		if rule.kind == "object" {
			key := rule.object
			if rule.ownObj != "" {
				key = rule.ownObj
			}
			obj := w.own[key]
			path, form = pathOf(rule, pattern, obj), strings.ReplaceAll(rule.form, "{obj}", obj)
		}
		if rec := w.serve(w.people[rule.ownCaller], method, path, form); rec.Code != rule.ownStatus {
			t.Errorf("%s on A's own object as %s: %d, want %d: %.300s", pattern, rule.ownCaller, rec.Code, rule.ownStatus, rec.Body.String())
		}
	}
}

func firstMarker(s string, markers []string) string {
	for _, m := range markers {
		if strings.Contains(s, m) {
			return m
		}
	}
	return ""
}
