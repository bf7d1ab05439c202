package web

import (
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/edu-invite/invite/shared/dynamo"
)

// TestConsoleRolesSaysWhenAQueryIsTooBroad: a role search whose every word
// names more roles than the store's bound keeps the typed query and says
// next to it how to narrow it, instead of a list that is not the true one;
// a narrower query lists its roles.
func TestConsoleRolesSaysWhenAQueryIsTooBroad(t *testing.T) {
	f := newConsoleFixture(t, 3, 4) // roles "Performance role <run>-0", -1, -2
	f.pages.cfg.Service.Store.(*dynamo.Store).SetRoleListingBound(1)
	for _, c := range []struct {
		name, query string
		broad       bool
	}{
		{"every word names every role", "performance role", true},
		{"one word names one role", "role 2", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := httptest.NewRequest("GET", "/console/roles?q="+strings.ReplaceAll(c.query, " ", "+"), nil)
			body := f.searchPage(t, f.pages.consoleRoles, r, "matches more than 1 roles", c.query, c.broad)
			if rows := strings.Count(body, "<tr><td>"); (rows == 0) != c.broad || (!c.broad && rows != 1) {
				t.Errorf("%d roles listed", rows)
			}
		})
	}
}
