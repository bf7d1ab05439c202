package httpapi_test

import (
	"net/http"
	"testing"
)

// TestDeletionConsequencesPastTheBoundAnswerAPage: a role with more
// members than one unpaged answer holds (the bound lowered to 3; role A
// has 4) answers its deletion's consequences in the page envelope, by
// name, with the true total, instead of refusing; a caller may ask any
// page; another organization's role stays missing.
func TestDeletionConsequencesPastTheBoundAnswerAPage(t *testing.T) {
	w := newWorld(t)
	w.Svc.MembersListedBound = 3
	type consequence struct {
		Authority string         `json:"authority"`
		UserInfo  map[string]any `json:"userInfo"`
	}
	type page struct {
		Content       []consequence `json:"content"`
		TotalElements int64         `json:"totalElements"`
		Number        int           `json:"number"`
		Last          bool          `json:"last"`
	}
	get := func(t *testing.T, query string) page {
		t.Helper()
		rec := w.do("instAdmin", "GET", "/api/v1/user_roles/consequences/{roleA}"+query, "")
		if rec.Code != http.StatusOK {
			t.Fatalf("%s: %d %s", query, rec.Code, rec.Body)
		}
		return decode[page](t, rec)
	}
	tests := []struct {
		name, query string
		length      int
		last        bool
	}{
		{"unpaged", "", 4, true},
		{"second page of 3", "?pageNumber=1&pageSize=3", 1, true},
		{"first page of 2", "?pageSize=2", 2, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := get(t, tc.query)
			if got.TotalElements != 4 || got.Last != tc.last || len(got.Content) != tc.length {
				t.Errorf("total %d, last %v, %d items; want 4, %v, %d", got.TotalElements, got.Last, len(got.Content), tc.last, tc.length)
			}
		})
	}
	// Two pages of two are the four memberships, each once.
	seen := map[string]bool{}
	for _, q := range []string{"?pageNumber=0&pageSize=2", "?pageNumber=1&pageSize=2"} {
		for _, c := range get(t, q).Content {
			seen[c.Authority+" "+c.UserInfo["email"].(string)] = true
		}
	}
	if len(seen) != 4 {
		t.Errorf("two pages of two: %v, want the 4 memberships of role A", seen)
	}
	if rec := w.do("orgToken", "GET", "/api/external/v1/user_roles/consequences/{roleB}?pageSize=2", ""); rec.Code != http.StatusNotFound {
		t.Errorf("another organization's role, paged: %d %s, want 404", rec.Code, rec.Body)
	}
}
