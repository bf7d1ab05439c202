package httpapi_test

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/edu-invite/invite/shared/domain"
)

// The application managers of an organization are listed to its
// institution admins with the roles they manage, and their rights can be
// taken away; a member who is also a guest stays a guest.
func TestApplicationManagers(t *testing.T) {
	w := newWorld(t)
	// A second application manager of org-a who is also a guest of role A.
	w.signIn("dualmanager")
	invs := w.inviteByAPI("super", `{"intendedAuthority":"APPLICATION_MANAGER","invites":["dualmanager@example.org"],
		"roleIdentifiers":[{roleA}],"guestRoleIncluded":true,"expiryDate":{futureDate},"suppressSendingEmails":true}`)
	if res := w.acceptByAPI("dualmanager", invs[0]); res.Code != http.StatusCreated {
		t.Fatalf("accept: %d %s", res.Code, res.Body)
	}
	dual, err := w.Store.GetUserBySub(context.Background(), personOf("dualmanager").Sub)
	if err != nil {
		t.Fatal(err)
	}
	type row struct {
		Email string `json:"email"`
		Roles string `json:"roles"`
	}
	list := func(caller, query string) string {
		t.Helper()
		rec := w.do(caller, "GET", "/api/v1/users/applicationManagers"+query, "")
		if rec.Code != http.StatusOK {
			t.Fatalf("%s lists application managers: %d %s", caller, rec.Code, rec.Body)
		}
		var got []string
		for _, r := range decode[[]row](t, rec) {
			got = append(got, r.Email+"="+r.Roles)
		}
		slicesSort(got)
		return strings.Join(got, " ")
	}
	both := "appManager@example.org=Role A dualmanager@example.org=Role A"
	for _, tc := range []struct{ caller, query, want string }{
		{"instAdmin", "", both},
		{"super", "?organizationGUID=org-a", both},
		{"super", "?organizationGUID=org-b", ""},
	} {
		if got := list(tc.caller, tc.query); got != tc.want {
			t.Errorf("%s%s: %q, want %q", tc.caller, tc.query, got, tc.want)
		}
	}
	for _, tc := range []struct {
		caller, path string
		want         int
	}{
		{"super", "/api/v1/users/applicationManagers", http.StatusBadRequest}, // which organization?
		{"manager", "/api/v1/users/applicationManagers", http.StatusForbidden},
		{"appManager", "/api/v1/users/applicationManagers", http.StatusForbidden},
	} {
		if rec := w.do(tc.caller, "GET", tc.path, ""); rec.Code != tc.want {
			t.Errorf("%s GET %s: %d, want %d", tc.caller, tc.path, rec.Code, tc.want)
		}
	}

	for _, tc := range []struct {
		name, caller string
		user         int64
		want         int
		after        string
	}{
		{"a manager may not", "manager", w.Users["appManager"].ID, http.StatusForbidden, both},
		{"a user without the rights", "instAdmin", w.Users["guest"].ID, http.StatusNotFound, both},
		{"an unknown user", "instAdmin", 999999, http.StatusNotFound, both},
		{"the application manager goes", "instAdmin", w.Users["appManager"].ID, http.StatusOK, "dualmanager@example.org=Role A"},
		{"the one who is also a guest stays a guest", "instAdmin", dual.ID, http.StatusOK, ""},
		{"twice is 404", "instAdmin", dual.ID, http.StatusNotFound, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rec := w.do(tc.caller, "PUT", "/api/v1/users/removeApplicationManager/"+itoa(tc.user), "")
			if rec.Code != tc.want {
				t.Fatalf("remove: %d %s, want %d", rec.Code, rec.Body, tc.want)
			}
			if got := list("instAdmin", ""); got != tc.after {
				t.Errorf("after: %q, want %q", got, tc.after)
			}
		})
	}
	if _, err := w.Store.GetUserRole(context.Background(), w.Users["appManager"].ID, w.RoleA); err == nil {
		t.Error("the application manager's membership of role A is still there")
	}
	ur, err := w.Store.GetUserRole(context.Background(), dual.ID, w.RoleA)
	if err != nil || ur.Authority != domain.Guest {
		t.Errorf("the dual manager's membership: %+v %v, want a GUEST membership", ur, err)
	}
}
