//go:build parity

package parity

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"testing"
	"time"

	"github.com/edu-invite/invite/shared/domain"
)

// The role deletion and role move jobs: a request that deletes or moves a
// role with more members than its budget (ROLE_DELETION_BUDGET,
// ROLE_MOVE_BUDGET: roleDeletionBudget and roleMoveBudget in the
// Makefile's PARITY_CONTEXT) handles the budget itself and hands the rest
// to the jobs function (lambda:InvokeFunction with the role of the
// function that took the request), whose run does the rest with its own
// role. Each invocation and each table access is checked against the
// template's statements.

// roleBudget reads a function's budget setting from the template; a
// deployment without it cannot show the hand-on at small scale.
func roleBudget(t *testing.T, function, setting string) int {
	t.Helper()
	n, err := strconv.Atoi(env.Functions[function].Env[setting])
	if err != nil || n < 1 {
		t.Fatalf("the parity deployment gives the %s function no %s (%q): roleDeletionBudget and roleMoveBudget in PARITY_CONTEXT",
			function, setting, env.Functions[function].Env[setting])
	}
	return n
}

// seedMembers gives the role n guests of their own, written as the
// performance seed writes them, and answers their ids.
func seedMembers(t *testing.T, roleID int64, n int, label string) []int64 {
	t.Helper()
	ctx := context.Background()
	firstUser, err := env.Store.NextIDs(ctx, "user", n)
	if err != nil {
		t.Fatal(err)
	}
	firstMembership, err := env.Store.NextIDs(ctx, "userrole", n)
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now().UTC()
	seed := domain.Seed{}
	var ids []int64
	for i := range int64(n) {
		uid := firstUser + i
		ids = append(ids, uid)
		seed.Users = append(seed.Users, domain.User{ID: uid, Sub: fmt.Sprint("urn:collab:person:", label, "-", uid), GivenName: label,
			FamilyName: fmt.Sprint(uid), Name: fmt.Sprint(label, " ", uid), Email: fmt.Sprint(label, uid, "@parity.example.org"), CreatedAt: now})
		seed.UserRoles = append(seed.UserRoles, domain.UserRole{ID: firstMembership + i, UserID: uid, RoleID: roleID, Authority: domain.Guest,
			CreatedAt: now.Add(-time.Hour)})
	}
	if err := env.Store.Seed(ctx, seed); err != nil {
		t.Fatal(err)
	}
	return ids
}

// invokesOfJobs counts the function's invocations of another function.
func invokesOfJobs(function string) int { return len(env.Log.Calls(function, "lambda:InvokeFunction")) }

// waitUntil polls done every half second for up to 90 s; it fails the
// test with what is left when that passes, or at once when a call was
// denied since the test's denials mark (the work cannot finish then).
func waitUntil(t *testing.T, what string, denialsMark int, done func() (bool, string)) {
	t.Helper()
	deadline := time.Now().Add(90 * time.Second)
	for {
		ok, left := done()
		if ok {
			return
		}
		if denied := env.Log.Denials(); len(denied) > denialsMark {
			t.Fatalf("%s: still %s after a denied call: %s", what, left, denied[denialsMark])
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: still %s 90 s later", what, left)
		}
		time.Sleep(500 * time.Millisecond)
	}
}

// consoleAdmin is the super user signed in to the console.
func consoleAdmin(t *testing.T) *browser {
	admin := newBrowser(t)
	admin.signIn(superUser, "/console")
	return admin
}

// TestRoleDeletionContinuesInTheJobsFunction: a role with more members
// than a DELETE takes on, deleted through the API (roles function) and
// the console (web function), loses every membership: the request removes
// its budget and invokes the jobs function once, which removes the rest.
// Afterwards the table holds no membership of the role, its member
// counter is zero, its deletion is finished, and the guests, who had no
// other role, are gone.
func TestRoleDeletionContinuesInTheJobsFunction(t *testing.T) {
	for _, tc := range []struct {
		name, function string
		delete         func(t *testing.T, roleID string)
	}{
		{"API", "roles", func(t *testing.T, roleID string) {
			superUserAPI(t).call(http.MethodDelete, "/api/v1/roles/"+roleID, "", http.StatusNoContent)
		}},
		{"console", "web", func(t *testing.T, roleID string) {
			if code, page, at := consoleAdmin(t).post("/console/roles/"+roleID+"/delete", url.Values{}); code != http.StatusOK || at.Path != "/console/roles" {
				t.Fatalf("delete in the console: %d at %s: %.800s", code, at, textOf(page))
			}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			noDenials(t)
			denialsMark := len(env.Log.Denials())
			ctx := context.Background()
			budget := roleBudget(t, tc.function, "ROLE_DELETION_BUDGET")
			id := apiRole(t, "Large deletion "+tc.name, "org-parity")
			roleID, _ := strconv.ParseInt(id, 10, 64)
			members := seedMembers(t, roleID, 3*budget+1, "deleted"+tc.name)
			before := invokesOfJobs(tc.function)

			tc.delete(t, id)

			membershipsLeft := func() int {
				page, _, err := env.Store.ListUserRolesOfRole(ctx, roleID, "", 100)
				if err != nil {
					t.Fatal(err)
				}
				return len(page)
			}
			if n := membershipsLeft(); n == 0 || n == len(members) {
				// Had the request removed all or none, it would not show
				// the budget and the hand-on.
				t.Errorf("after the request %d of %d memberships are left, want some removed and some left (budget %d)", n, len(members), budget)
			}
			waitUntil(t, "the role's deletion", denialsMark, func() (bool, string) {
				_, err := env.Store.GetRoleDeletion(ctx, roleID)
				n := membershipsLeft()
				return n == 0 && domain.IsNotFound(err), fmt.Sprintf("%d memberships left, deletion record %v", n, err)
			})
			counts, err := env.Store.CountMembersOfRoles(ctx, []int64{roleID})
			if err != nil || counts[roleID] != 0 {
				t.Errorf("the deleted role's member counter: %v (%v), want 0", counts[roleID], err)
			}
			for _, uid := range members {
				if _, err := env.Store.GetUser(ctx, uid); !domain.IsNotFound(err) {
					t.Errorf("guest %d, whose only role was deleted, is still there (%v)", uid, err)
				}
			}
			if n := invokesOfJobs(tc.function) - before; n != 1 {
				t.Errorf("the %s function invoked the jobs function %d times, want once", tc.function, n)
			}
		})
	}
}

// sharedApplication saves, once, an application of no organization from
// the console: a role that uses it may move to any organization as it is.
func sharedApplication(t *testing.T) string {
	t.Helper()
	const app = "zz-shared-parity"
	if savedApps[app] {
		return app
	}
	code, page, _ := consoleAdmin(t).post("/console/applications/new", url.Values{"manageId": {app}, "manageType": {"OIDC10_RP"},
		"name": {"Zz shared app"}, "nameNl": {"Zz shared app"}, "organizationName": {"Parity"}, "organizationNameNl": {"Parity"},
		"landingPage": {"https://coverage.parity.example.org"}, "organizationGUID": {""}})
	if code != http.StatusOK {
		t.Fatalf("save the shared application: %d %.800s", code, textOf(page))
	}
	savedApps[app] = true
	return app
}

// appCheckbox finds an application's checkbox on the console's role form.
func appCheckbox(t *testing.T, page, manageID string) string {
	t.Helper()
	m := regexp.MustCompile(`name="app(\d+)" value="1" id="app-` + regexp.QuoteMeta(manageID) + `"`).FindStringSubmatch(page)
	if m == nil {
		t.Fatalf("the role form has no checkbox for %s: %.800s", manageID, textOf(page))
	}
	return m[1]
}

// TestRoleMoveContinuesInTheJobsFunction: a role with more members than a
// move carries in its request, moved to another organization through the
// API (roles function) and the console (web function), with an
// application of no organization (which any organization's role may use):
// the request
// carries its budget and invokes the jobs function once, which carries
// the rest. Afterwards every member is listed in the new organization and
// none in the old one.
func TestRoleMoveContinuesInTheJobsFunction(t *testing.T) {
	for _, tc := range []struct {
		name, function string
		move           func(t *testing.T, roleID, to string)
	}{
		{"API", "roles", func(t *testing.T, roleID, to string) {
			api := superUserAPI(t)
			role, _ := api.call(http.MethodGet, "/api/v1/roles/"+roleID, "", http.StatusOK).(map[string]any)
			role["organizationGUID"] = to
			body, _ := json.Marshal(role)
			api.call(http.MethodPut, "/api/v1/roles", string(body), http.StatusOK)
		}},
		{"console", "web", func(t *testing.T, roleID, to string) {
			app := sharedApplication(t)
			admin := consoleAdmin(t)
			code, form := admin.get("/console/roles/" + roleID + "/edit")
			if code != http.StatusOK {
				t.Fatalf("the role form: %d %.800s", code, textOf(form))
			}
			i := appCheckbox(t, form, app)
			code, page, at := admin.post("/console/roles/"+roleID+"/edit", url.Values{"name": {"Large move console"}, "description": {"moved"},
				"days": {"30"}, "organization": {to}, "app" + i: {"1"}, "landing" + i: {"https://coverage.parity.example.org"}})
			if code != http.StatusOK || at.Path != "/console/roles/"+roleID {
				t.Fatalf("move in the console: %d at %s: %.800s", code, at, textOf(page))
			}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			noDenials(t)
			denialsMark := len(env.Log.Denials())
			ctx := context.Background()
			budget := roleBudget(t, tc.function, "ROLE_MOVE_BUDGET")
			from, to := "org-move-from-"+tc.function, "org-move-to-"+tc.function
			id := apiRoleWithApp(t, "Large move "+tc.name, from, sharedApplication(t))
			roleID, _ := strconv.ParseInt(id, 10, 64)
			members := len(seedMembers(t, roleID, 3*budget+1, "moved"+tc.name))
			listed := func(org string) int64 {
				page, err := env.Store.SearchUsers(ctx, domain.UserSearch{OrganizationGUID: org, Page: domain.PageRequest{Size: 100}})
				if err != nil {
					t.Fatal(err)
				}
				return page.Total
			}
			if n := listed(from); n != int64(members) {
				t.Fatalf("before the move %s lists %d, want the %d members", from, n, members)
			}
			before := invokesOfJobs(tc.function)

			tc.move(t, id, to)

			if n := listed(to); n == 0 || n == int64(members) {
				t.Errorf("after the request %s lists %d of %d members, want some carried and some left (budget %d)", to, n, members, budget)
			}
			waitUntil(t, "the role's move", denialsMark, func() (bool, string) {
				moved, left := listed(to), listed(from)
				return moved == int64(members) && left == 0, fmt.Sprintf("%d listed in %s, %d in %s", moved, to, left, from)
			})
			if role, err := env.Store.GetRole(ctx, roleID); err != nil || role.OrganizationGUID != to {
				t.Errorf("the moved role: %+v (%v), want it in %s", role, err, to)
			}
			if n := invokesOfJobs(tc.function) - before; n != 1 {
				t.Errorf("the %s function invoked the jobs function %d times, want once", tc.function, n)
			}
		})
	}
}

// TestIndexRepairHandsAMoveOnInTheJobsFunction: a role left marked
// mid-move (its members not carried: a crash after the role's
// transaction, here the store's update alone) with more members than the
// index repair carries in its page of roles. The repair, a job of the jobs
// function, carries its share and hands the rest to a role move job,
// which the jobs function starts in itself (its own
// lambda:InvokeFunction) and which carries every other member.
func TestIndexRepairHandsAMoveOnInTheJobsFunction(t *testing.T) {
	noDenials(t)
	denialsMark := len(env.Log.Denials())
	ctx := context.Background()
	from, to := "org-repair-from", "org-repair-to"
	id := apiRoleWithApp(t, "Large move repaired", from, sharedApplication(t))
	roleID, _ := strconv.ParseInt(id, 10, 64)
	// More than the repair's 50 (shared/dynamo repairMoveBudget).
	const members = 60
	seedMembers(t, roleID, members, "repaired")
	role, err := env.Store.GetRole(ctx, roleID)
	if err != nil {
		t.Fatal(err)
	}
	role.OrganizationGUID = to
	if err := env.Store.UpdateRole(ctx, role, nil); err != nil {
		t.Fatal(err)
	}
	listed := func(org string) int64 {
		page, err := env.Store.SearchUsers(ctx, domain.UserSearch{OrganizationGUID: org, Page: domain.PageRequest{Size: 100}})
		if err != nil {
			t.Fatal(err)
		}
		return page.Total
	}
	if n := listed(from); n != members {
		t.Fatalf("before the repair %s lists %d, want the %d members not carried", from, n, members)
	}
	fromJobs := invokesOfJobs("jobs")
	code, job := superUserCall(t, http.MethodPost, "/api/v1/system/index-repair", "")
	statusURL, _ := job["statusUrl"].(string)
	if code != http.StatusAccepted || statusURL == "" {
		t.Fatalf("index repair: %d %v, want 202 with a job", code, job)
	}
	job = pollJob(t, statusURL)
	res, _ := job["result"].(map[string]any)
	if job["status"] != "succeeded" || res["roleMovesHandedOn"] == nil || res["roleMovesHandedOn"].(float64) < 1 {
		t.Fatalf("the index repair job %v, want it succeeded with a role move handed on", job)
	}
	waitUntil(t, "the repaired role's move", denialsMark, func() (bool, string) {
		moved, left := listed(to), listed(from)
		return moved == members && left == 0, fmt.Sprintf("%d listed in %s, %d in %s", moved, to, left, from)
	})
	if n := invokesOfJobs("jobs") - fromJobs; n < 1 {
		t.Errorf("the jobs function did not start the role move job in itself (%d invocations)", n)
	}
}
