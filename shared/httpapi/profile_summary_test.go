package httpapi_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/edu-invite/invite/shared/auth"
)

const profileUser = "profile-reader"

// The user profile lists the roles a person is a guest of, to machine
// callers with the profile scope; roles-summary lists the roles of their
// organization to the internal invite API's callers.
func TestUserProfileAndRolesSummary(t *testing.T) {
	w := newWorld(t)
	m, err := auth.NewMachineCallers(auth.MachineCallersConfig{Basic: []auth.BasicCallerConfig{
		{User: profileUser, Password: platformPassword, OrganizationGUID: "org-a", Scopes: []string{auth.ScopeProfile}},
		{User: inviteOnlyUser, Password: platformPassword, OrganizationGUID: "org-a"},
	}})
	if err != nil {
		t.Fatal(err)
	}
	w.API.Authenticator.Machines = m
	type profile struct {
		Name         string           `json:"name"`
		Applications []map[string]any `json:"applications"`
	}
	names := func(ps []profile) string {
		var out []string
		for _, p := range ps {
			out = append(out, p.Name+"/"+itoa(int64(len(p.Applications))))
		}
		return strings.Join(out, " ")
	}
	for _, tc := range []struct {
		name, caller, query string
		code                int
		want                string
	}{
		{"a guest's roles with their applications", profileUser, "?collabPersonId=" + personOf("guest").Sub, 200, "Role A/1"},
		{"a manager is no guest", profileUser, "?collabPersonId=" + personOf("manager").Sub, 200, ""},
		{"an unknown person", profileUser, "?collabPersonId=urn:nobody", 200, ""},
		{"the person is required", profileUser, "", 400, ""},
		{"a caller without the scope", inviteOnlyUser, "?collabPersonId=" + personOf("guest").Sub, 403, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rec := w.basic(tc.caller, "GET", "/api/external/v1/profile"+tc.query)
			if rec.Code != tc.code {
				t.Fatalf("%d %s, want %d", rec.Code, rec.Body, tc.code)
			}
			if tc.code == 200 {
				if got := names(decode[[]profile](t, rec)); got != tc.want {
					t.Errorf("profile %q, want %q", got, tc.want)
				}
			}
		})
	}

	const summary = "/api/external/v1/internal/invite/roles-summary"
	rec := w.basic(inviteOnlyUser, "GET", summary)
	if rec.Code != http.StatusOK {
		t.Fatalf("roles-summary: %d %s", rec.Code, rec.Body)
	}
	var got []string
	for _, r := range decode[[]struct {
		Name string `json:"name"`
		URN  string `json:"urn"`
	}](t, rec) {
		if r.URN == "" {
			t.Errorf("role %q without URN", r.Name)
		}
		got = append(got, r.Name)
	}
	slicesSort(got)
	// An organization's machine caller lists its organization's roles only.
	if strings.Join(got, ",") != "Role A" {
		t.Errorf("roles-summary names %v", got)
	}
	if rec := w.basic(profileUser, "GET", summary); rec.Code != http.StatusForbidden {
		t.Errorf("roles-summary by a caller without the invite scope: %d, want 403", rec.Code)
	}
}
