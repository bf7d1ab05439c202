package httpapi_test

import (
	"github.com/edu-invite/invite/shared/domain"
	"net/http"
	"strings"
	"testing"
)

// The user search accepts the reference client's sort keys and orders the
// page by them (within the page the store found by name).
func TestUserSearchSortKeys(t *testing.T) {
	w := newWorld(t)
	// Distinct given names and organizations in a known order.
	w.promote("guest", func(u *domain.User) { u.GivenName, u.SchacHomeOrganization = "Aa", "zz.example.org" })
	w.promote("manager", func(u *domain.User) { u.GivenName, u.SchacHomeOrganization = "Zz", "aa.example.org" })
	first := func(sort, dir string) string {
		t.Helper()
		rec := w.do("super", "GET", "/api/v1/users/search?pageSize=50&sort="+sort+"&sortDirection="+dir, "")
		if rec.Code != http.StatusOK {
			t.Fatalf("sort=%s: %d %s", sort, rec.Code, rec.Body)
		}
		page := decode[struct {
			Content []struct {
				Email string `json:"email"`
			} `json:"content"`
		}](t, rec)
		if len(page.Content) == 0 {
			t.Fatalf("sort=%s: empty page", sort)
		}
		return strings.TrimSuffix(page.Content[0].Email, "@example.org")
	}
	for _, tc := range []struct{ sort, dir, want string }{
		{"given_name", "ASC", "guest"},
		{"given_name", "DESC", "manager"},
		{"schac_home_organization", "ASC", "manager"},
		{"schac_home_organization", "DESC", "guest"},
		{"authority", "DESC", "super"},
	} {
		if got := first(tc.sort, tc.dir); got != tc.want {
			t.Errorf("sort=%s %s: first %q, want %q", tc.sort, tc.dir, got, tc.want)
		}
	}
	for _, sort := range []string{"createdAt", "lastActivity"} {
		first(sort, "DESC") // accepted, not 400
	}
	if rec := w.do("super", "GET", "/api/v1/users/search?sort=shoeSize", ""); rec.Code != http.StatusBadRequest {
		t.Errorf("unknown sort key: %d, want 400", rec.Code)
	}
}
