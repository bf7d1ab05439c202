package httpapi_test

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"net/http/httptest"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/edu-invite/invite/shared/auth"
	"github.com/edu-invite/invite/shared/domain"
	"github.com/edu-invite/invite/shared/httpapi"
	"github.com/edu-invite/invite/shared/service"
)

var allGroups = []httpapi.Group{httpapi.GroupUsers, httpapi.GroupRoles, httpapi.GroupInvitations, httpapi.GroupCRM, httpapi.GroupTokens, httpapi.GroupSystem}

// TestEveryRouteHasATenantRule: a route added to the route table without
// a line in tenantRules fails here, as does a rule for a route that no
// longer exists.
func TestEveryRouteHasATenantRule(t *testing.T) {
	rules := tenantRules()
	served := map[string]bool{}
	for _, g := range allGroups {
		for _, pattern := range (&httpapi.API{}).Routes(g) {
			served[pattern] = true
			rule, ok := rules[pattern]
			switch {
			case !ok:
				t.Errorf("%s has no tenant rule: add it to tenantRules (tenant_rules_test.go)", pattern)
			case rule.kind == "none" && rule.reason == "":
				t.Errorf("%s: a route without organization data says why", pattern)
			case rule.kind == "object" && rule.object == "":
				t.Errorf("%s: an object rule names its object", pattern)
			}
		}
	}
	for _, pattern := range slices.Sorted(maps.Keys(rules)) {
		if !served[pattern] {
			t.Errorf("tenantRules has %s, which the route table does not serve", pattern)
		}
	}
}

// TestTenantIsolation runs every route of the route table as every kind of
// caller of organization A (a person in each authority, the organization's
// API token, its machine caller) against organization B's objects: each
// is refused, with exactly the answer an object that does not exist gets
// (status, exception and message, ids aside), and nothing of B appears in
// what A's callers list. The same call on A's own object succeeds. A CRM
// system's key (the federation's CRM, of no organization) is refused on
// every route outside the CRM paths.
func TestTenantIsolation(t *testing.T) {
	rules := tenantRules()
	w := newTenantWorld(t)
	w.linkRoleBToItsApplication()
	markers := []string{"Role B", "bguest", "bmanager", "openb@", "b-app", "sp-borg", "org-b"}
	var patterns []string
	for _, g := range allGroups {
		patterns = append(patterns, (&httpapi.API{}).Routes(g)...)
	}
	for _, pattern := range patterns {
		rule, ok := rules[pattern]
		if !ok {
			continue // TestEveryRouteHasATenantRule reports it
		}
		method, _, _ := strings.Cut(pattern, " ")
		t.Run(pattern, func(t *testing.T) {
			if _, path, _ := strings.Cut(pattern, " "); rule.kind != "none" && !crmRoute(path) {
				if rec := w.doAs("crmKey", method, regexp.MustCompile(`\{[^}]+\}`).ReplaceAllString(path, "1"), "{}"); rec.Code != 403 {
					t.Errorf("a CRM key outside the CRM paths: %d %.200s", rec.Code, rec.Body.String())
				}
			}
			switch rule.kind {
			case "object":
				for _, caller := range tenantCallers {
					foreign := w.doAs(caller, method, rule.pathFor(pattern, w.foreign[rule.object]), rule.bodyFor(w.foreign[rule.object]))
					if foreign.Code < 300 && !rule.createFresh {
						// A read may answer "nothing" for both (an empty list).
						missing := w.doAs(caller, method, rule.pathFor(pattern, w.missing[rule.object]), rule.bodyFor(w.missing[rule.object]))
						if normalized(foreign, w.foreign[rule.object]) != normalized(missing, w.missing[rule.object]) || mentionsAny(foreign.Body.String(), markers) {
							t.Errorf("%s on B's %s answered %d: %.300s", caller, rule.object, foreign.Code, foreign.Body.String())
						}
						continue
					}
					if rule.createFresh {
						// The same id unknown to everybody would be created; B's
						// answers as a read of a missing one does.
						if foreign.Code != 404 && foreign.Code != 403 && foreign.Code != 401 {
							t.Errorf("%s creating with B's %s id: %d, want 404 (or 403 for callers without the right): %.300s", caller, rule.object, foreign.Code, foreign.Body.String())
						}
						continue
					}
					missing := w.doAs(caller, method, rule.pathFor(pattern, w.missing[rule.object]), rule.bodyFor(w.missing[rule.object]))
					if got, want := normalized(foreign, w.foreign[rule.object]), normalized(missing, w.missing[rule.object]); got != want {
						t.Errorf("%s: B's %s answers differently from a missing one:\n B:       %s\n missing: %s", caller, rule.object, got, want)
					}
				}
			case "listing":
				for _, caller := range tenantCallers {
					rec := w.doAs(caller, method, strings.SplitN(pattern, " ", 2)[1], "")
					if m := firstMarker(rec.Body.String(), markers); m != "" {
						t.Errorf("%s lists something of organization B (%q): %.300s", caller, m, rec.Body.String())
					}
				}
			case "superOnly":
				for _, caller := range tenantCallers {
					path := regexp.MustCompile(`\{[^}]+\}`).ReplaceAllString(strings.SplitN(pattern, " ", 2)[1], "1")
					if rec := w.doAs(caller, method, path, "{}"); rec.Code != 401 && rec.Code != 403 {
						t.Errorf("%s called a super users' route: %d %.200s", caller, rec.Code, rec.Body.String())
					}
				}
			}
		})
	}
	// A's own objects, in a world of their own: reads first, then changes,
	// then deletions, so that no call takes away what a later one needs.
	own := newTenantWorld(t)
	own.addSpareObjects()
	order := func(p string) int {
		switch {
		case strings.HasPrefix(p, "GET "):
			return 0
		case strings.HasPrefix(p, "DELETE "):
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
		body := ""
		if rule.kind == "object" {
			key := rule.object
			if rule.ownObj != "" {
				key = rule.ownObj
			}
			obj, ok := own.own[key]
			if !ok {
				t.Fatalf("%s: no own object %q", pattern, key)
			}
			path, body = rule.pathFor(pattern, obj), rule.bodyFor(obj)
		}
		// Names must differ between the creations of twin routes.
		body = strings.ReplaceAll(body, `"name":"New"`, `"name":"New `+method+path+`"`)
		if rec := own.doAs(rule.ownCaller, method, path, body); rec.Code != rule.ownStatus {
			t.Errorf("%s on A's own object as %s: %d, want %d: %.300s", pattern, rule.ownCaller, rec.Code, rule.ownStatus, rec.Body.String())
		}
	}
}

func crmRoute(path string) bool {
	return strings.HasPrefix(path, "/crm/") || path == "/api/profile" || strings.HasPrefix(path, "/api/external/v1/invite/crm/")
}

// pathFor is the rule's path for an object.
func (r tenantRule) pathFor(pattern, obj string) string {
	_, path, _ := strings.Cut(pattern, " ")
	if r.path != "" {
		path = r.path
	} else {
		path = regexp.MustCompile(`\{[^}]+\}`).ReplaceAllLiteralString(path, "{obj}")
	}
	return strings.ReplaceAll(path, "{obj}", obj)
}

func (r tenantRule) bodyFor(obj string) string { return strings.ReplaceAll(r.body, "{obj}", obj) }

// normalized is an answer without what differs between any two objects:
// its time, and the object's id wherever it is quoted.
func normalized(rec *httptest.ResponseRecorder, obj string) string {
	var body map[string]any
	text := rec.Body.String()
	if json.Unmarshal(rec.Body.Bytes(), &body) == nil {
		delete(body, "timestamp")
		b, _ := json.Marshal(body)
		text = string(b)
	}
	text = regexp.MustCompile(`\b`+regexp.QuoteMeta(obj)+`\b`).ReplaceAllString(text, "#")
	return fmt.Sprintf("%d %s", rec.Code, text)
}

func firstMarker(s string, markers []string) string {
	for _, m := range markers {
		if strings.Contains(s, m) {
			return m
		}
	}
	return ""
}

func mentionsAny(s string, markers []string) bool { return firstMarker(s, markers) != "" }

// linkRoleBToItsApplication makes role B use organization B's own
// application, so that lookups by application have something of B to hide.
func (w *tenantWorld) linkRoleBToItsApplication() {
	w.t.Helper()
	if _, err := w.Svc.UpdateRole(context.Background(), root, w.RoleB, service.RoleInput{Name: "Role B", DefaultExpiryDays: 365,
		ApplicationUsages: []service.ApplicationUsageInput{{ManageID: "lms"}, {ManageID: "b-app"}}}); err != nil {
		w.t.Fatal(err)
	}
}

// addSpareObjects gives organization A objects that the own calls of
// twin routes delete one each.
func (w *tenantWorld) addSpareObjects() {
	w.t.Helper()
	ctx := context.Background()
	for i := 1; i <= 4; i++ {
		w.own[fmt.Sprintf("spareRole%d", i)] = itoa(w.createRole(fmt.Sprintf("Spare %d", i), "org-a", "wiki"))
	}
	for i := 1; i <= 2; i++ {
		id, _ := w.invite(fmt.Sprintf("spare%d@example.org", i), w.RoleA, domain.Guest)
		w.own[fmt.Sprintf("spareInvitation%d", i)] = itoa(id)
		res := w.inviteAndAccept(fmt.Sprintf("spareguest%d", i), w.RoleA, domain.Guest)
		w.own[fmt.Sprintf("spareUserRole%d", i)] = itoa(res.UserRoles[0].ID)
		if err := w.Store.CreateAPIToken(ctx, domain.APIToken{ID: int64(10 + i), HashedValue: auth.HashToken(fmt.Sprintf("spare-token-%d-0123456789abcdef0123456789", i)),
			OrganizationGUID: "org-a", Description: "spare", CreatedAt: w.Now}); err != nil {
			w.t.Fatal(err)
		}
		w.own[fmt.Sprintf("spareToken%d", i)] = itoa(int64(10 + i))
	}
	spare := w.inviteAndAccept("sparesubject", w.RoleA, domain.Guest)
	w.own["spareSubject"] = spare.User.Sub
	w.own["appManagerUser"] = itoa(w.Users["appManager"].ID)
	w.own["spareAppManagerUser"] = itoa(w.inviteAndAccept("spaream", w.RoleA, domain.ApplicationManager).User.ID)
	w.own["spareApplication"], w.own["spareConnection"] = "spare-app", "sp-spare"
	w.own["newApplication"], w.own["newConnection"] = "a-new-app", "sp-a-new"
}
