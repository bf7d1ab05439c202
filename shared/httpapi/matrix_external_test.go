package httpapi_test

import (
	"net/http"
	"slices"
	"strings"
	"testing"
)

// twinnedOperations are the /api/v1 operations whose /api/external/v1 twin
// serves the same handler (routes.go): each matrix row of one of them is
// run again on the twin's path and must give every caller the same status.
// A path ending in "/" covers the operation's path parameters.
var twinnedOperations = []struct{ method, path string }{
	{"GET", "/api/v1/users/me"}, {"GET", "/api/v1/users/config"}, {"GET", "/api/v1/users/search"},
	{"GET", "/api/v1/users/search-by-application"}, {"DELETE", "/api/v1/users/"},
	{"GET", "/api/v1/users/other/"}, {"GET", "/api/v1/users/institution-admins/"},
	{"GET", "/api/v1/users/institutionAdmins"}, {"PUT", "/api/v1/users/removeInstitutionAdmin/"},
	{"GET", "/api/v1/users/applicationManagers"}, {"PUT", "/api/v1/users/removeApplicationManager/"},
	{"GET", "/api/v1/tokens"}, {"GET", "/api/v1/tokens/generate-token"}, {"POST", "/api/v1/tokens"},
	{"DELETE", "/api/v1/tokens/"},
	{"GET", "/api/v1/user_roles_audit/search"}, {"GET", "/api/v1/user_roles_audit/roles"},
	{"GET", "/api/v1/invitations/mine"},
	{"GET", "/api/v1/system/expiry-user-roles"}, {"GET", "/api/v1/system/cron/expiry-notifications"},
	{"GET", "/api/v1/system/cron/cleanup"}, {"GET", "/api/v1/system/unknown-roles"},
	{"GET", "/api/v1/system/landing-page-fix"}, {"PUT", "/api/v1/system/performance-seed"},
	{"GET", "/api/v1/manage/provider/"}, {"GET", "/api/v1/manage/applications"}, {"GET", "/api/v1/manage/providers"},
	{"GET", "/api/v1/manage/all-applications"}, {"GET", "/api/v1/manage/identity-providers"},
	{"GET", "/api/v1/manage/requested-authn-context-values"}, {"GET", "/api/v1/manage/provisionings/"},
}

// isTwinned reports whether a case calls one of twinnedOperations.
func isTwinned(c matrixCase) bool {
	path, _, _ := strings.Cut(c.path, "?")
	for _, op := range twinnedOperations {
		if c.method != op.method {
			continue
		}
		if path == op.path || (strings.HasSuffix(op.path, "/") && strings.HasPrefix(path, op.path)) {
			return true
		}
	}
	return false
}

// accountTwinMatrixCases repeats the rows of the twinned
// operations (users, tokens, audit, my invitations, system and manage
// lookups) on /api/external/v1.
func accountTwinMatrixCases() (cases []matrixCase) {
	sources := slices.Concat(userMatrixCases(), consoleMatrixCases(), auditFilterMatrixCases(), tokenMatrixCases(),
		invitationMatrixCases(), systemMatrixCases(), maintenanceMatrixCases(), registryMatrixCases())
	for _, c := range sources {
		if !isTwinned(c) {
			continue
		}
		c.name += " (external)"
		c.path = "/api/external/v1/" + strings.TrimPrefix(c.path, "/api/v1/")
		cases = append(cases, c)
	}
	return cases
}

// TestEveryTwinHasMatrixRows keeps twinnedOperations honest: an entry that
// matches no /api/v1 row (a typo, a renamed path) would test nothing.
func TestEveryTwinHasMatrixRows(t *testing.T) {
	twins := accountTwinMatrixCases()
	for _, op := range twinnedOperations {
		ext := "/api/external/v1/" + strings.TrimPrefix(op.path, "/api/v1/")
		if !slices.ContainsFunc(twins, func(c matrixCase) bool {
			return c.method == op.method && strings.HasPrefix(c.path, ext)
		}) {
			t.Errorf("%s %s has no matrix row to repeat on %s", op.method, op.path, ext)
		}
	}
}

// TestExternalTwinsAnswerLikeTheirV1Operation checks more than the status:
// an API token (and a person) reading through a twin gets the very body
// the /api/v1 path gives, so integrators may use either prefix.
func TestExternalTwinsAnswerLikeTheirV1Operation(t *testing.T) {
	w := newWorld(t)
	for _, path := range []string{
		"users/config", "users/search-by-application", "users/search?query=tester", "users/other/{user:guest}",
		"users/institution-admins/{roleA}", "users/institutionAdmins?organizationGUID=org-a",
		"users/applicationManagers?organizationGUID=org-a", "tokens", "user_roles_audit/search?roleId={roleA}",
		"user_roles_audit/roles", "manage/applications", "manage/all-applications", "manage/provisionings/wiki",
	} {
		for _, caller := range []string{"orgToken", "instAdmin", "superToken"} {
			v1 := w.do(caller, "GET", "/api/v1/"+path, "")
			ext := w.do(caller, "GET", "/api/external/v1/"+path, "")
			if ext.Code != v1.Code {
				t.Errorf("GET %s as %s: /api/v1 %d, /api/external/v1 %d", path, caller, v1.Code, ext.Code)
				continue
			}
			// Organization tokens may not read tokens and some lookups
			// (the matrix rows); the others must get the answer itself.
			if v1.Code != http.StatusOK {
				if caller != "orgToken" {
					t.Errorf("GET %s as %s: %d, want 200", path, caller, v1.Code)
				}
				continue
			}
			if v1.Body.String() != ext.Body.String() {
				t.Errorf("GET %s as %s: the twin answers\n%.300s\nwhere /api/v1 answers\n%.300s", path, caller, ext.Body, v1.Body)
			}
		}
	}
}
