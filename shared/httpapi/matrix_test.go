package httpapi_test

import (
	"net/http"
	"slices"
	"testing"
)

// matrixCase is one operation of the API with the status every caller
// gets. want has one status per caller, in the order of `callers`:
//
//	super, superToken, instAdmin, orgToken, appManager, manager, inviter, guest, anonymous
//
// Paths and bodies may use the world's placeholders (see world.expand).
// matrixCases lists every case, one function per resource group.
type matrixCase struct {
	name         string
	method, path string
	body         string
	want         [9]int
}

// matrixCases is the table of TestAuthorizationMatrix: each group's cases
// live in its own file, matrix_<group>_test.go.
func matrixCases() []matrixCase {
	return slices.Concat(
		crmMatrixCases(),              // matrix_crm_test.go
		invitationMatrixCases(),       // matrix_invitations_test.go
		mailMatrixCases(),             // matrix_mails_test.go
		maintenanceMatrixCases(),      // matrix_maintenance_test.go
		consoleMatrixCases(),          // matrix_reference_test.go: OpenConext-Invite's console routes
		platformMatrixCases(),         // matrix_reference_test.go: VOOT, attribute aggregation, deprovisioning
		externalTwinMatrixCases(),     // matrix_reference_test.go: /api/external/v1 twins
		decidedRouteMatrixCases(),     // matrix_reference_test.go: routes answered by a README decision
		accountTwinMatrixCases(),      // matrix_external_test.go: users, tokens, system twins
		auditFilterMatrixCases(),      // matrix_reference_test.go
		registryMatrixCases(),         // matrix_registry_test.go
		roleMatrixCases(),             // matrix_roles_test.go
		systemMatrixCases(),           // matrix_system_test.go
		tokenMatrixCases(),            // matrix_tokens_test.go
		userRoleMatrixCases(),         // matrix_userroles_test.go
		userProvisioningMatrixCases(), // matrix_users_test.go
		userMatrixCases(),             // matrix_users_test.go
	)
}

// w9 spells a want row.
func w9(super, superToken, instAdmin, orgToken, appManager, manager, inviter, guest, anonymous int) [9]int {
	return [9]int{super, superToken, instAdmin, orgToken, appManager, manager, inviter, guest, anonymous}
}

// foreignObject is the row of an operation on another organization's
// object: super users get status, every caller of an organization 404,
// exactly as for an object that does not exist, and anonymous 401.
func foreignObject(status int) [9]int {
	return w9(status, status, 404, 404, 404, 404, 404, 404, 401)
}

// upTo spells the usual want row, the authority ladder: the callers from
// super down to lowest (in the order of callers) get status, every other
// signed-in caller 403 and anonymous 401. upTo(200, "orgToken") is a read
// for super users and the organization's admins; upTo(201, "inviter") a
// creation open to everyone of role A but its guests.
func upTo(status int, lowest string) [9]int {
	n := slices.Index(callers, lowest) + 1
	if n == 0 || n == len(callers) {
		panic("upTo: " + lowest + " is not a signed-in caller")
	}
	want := w9(403, 403, 403, 403, 403, 403, 403, 403, 401)
	for i := range n {
		want[i] = status
	}
	return want
}

// TestAuthorizationMatrix runs every operation as every kind of caller and
// checks the status: deny by default, the authority ladder, organization
// scoping of institution admins and API tokens. A refused change must not
// queue any SCIM delivery. Reads share one world; each change gets a fresh
// world so that callers do not see each other's effects (the callers it must
// refuse share one, as refusals have none). The changes, each on worlds of
// their own, run in parallel once the reads are done (a read signs its
// caller in, which writes, so reads stay one at a time).
func TestAuthorizationMatrix(t *testing.T) {
	cases := matrixCases()
	if len(cases) == 0 {
		t.Fatal("no matrix cases registered")
	}
	shared := newWorld(t)
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if tc.method != http.MethodGet {
				t.Parallel()
			}
			// The callers a change must refuse share one world of their
			// own: a refusal changes nothing, so each still meets the
			// world as built (and a refusal that did change it would show
			// in a later caller's answer). Each caller it must let through
			// gets a fresh world. Worlds are most of this test's time.
			var refusedWorld *world
			for i, caller := range callers {
				w := shared
				if tc.method != http.MethodGet {
					if tc.want[i] >= 400 {
						if refusedWorld == nil {
							refusedWorld = newWorld(t)
						}
						w = refusedWorld
					} else {
						w = newWorld(t)
					}
				}
				before := len(w.Queue.Deliveries())
				rec := w.do(caller, tc.method, tc.path, tc.body)
				if rec.Code != tc.want[i] {
					t.Errorf("%s %s as %s: status %d, want %d: %.300s", tc.method, tc.path, caller, rec.Code, tc.want[i], rec.Body.String())
				}
				if rec.Code >= 400 {
					if got := len(w.Queue.Deliveries()); got != before {
						t.Errorf("%s %s as %s failed with %d but queued %d deliveries", tc.method, tc.path, caller, rec.Code, got-before)
					}
					body := decode[map[string]any](t, rec)
					for _, k := range []string{"timestamp", "status", "error", "exception", "message", "path"} {
						if _, ok := body[k]; !ok {
							t.Errorf("%s %s as %s: error body lacks %q", tc.method, tc.path, caller, k)
						}
					}
				}
			}
		})
	}
}

// The ladder rows spell what the cases used to spell out in full.
func TestUpToSpellsTheLadder(t *testing.T) {
	for _, tc := range []struct {
		got, want [9]int
	}{
		{upTo(200, "superToken"), w9(200, 200, 403, 403, 403, 403, 403, 403, 401)},
		{upTo(200, "orgToken"), w9(200, 200, 200, 200, 403, 403, 403, 403, 401)},
		{upTo(201, "inviter"), w9(201, 201, 201, 201, 201, 201, 201, 403, 401)},
		{upTo(404, "guest"), w9(404, 404, 404, 404, 404, 404, 404, 404, 401)},
	} {
		if tc.got != tc.want {
			t.Errorf("got %v, want %v", tc.got, tc.want)
		}
	}
}
