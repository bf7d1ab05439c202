package web

import (
	"context"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/edu-invite/invite/shared/domain"
	"github.com/edu-invite/invite/shared/dynamo"
)

// TestConsolePeopleSaysWhenAQueryIsTooBroad: a search whose every word
// names more people than the store's bound keeps the typed query and says
// next to it how to narrow it, instead of a list that is not the true
// one; a narrower query lists its people.
func TestConsolePeopleSaysWhenAQueryIsTooBroad(t *testing.T) {
	f := newConsoleFixture(t, 2, 40)
	f.pages.cfg.Service.Store.(*dynamo.Store).SetSearchBound(5)
	for _, c := range []struct {
		name, query string
		broad       bool
	}{
		{"every word common", "seed", true},
		{"a whole e-mail address", "", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			query := c.query
			if query == "" {
				page, err := f.pages.cfg.Service.SearchPeople(context.Background(), f.super, domain.PageRequest{Size: 1})
				if err != nil || len(page.Items) == 0 {
					t.Fatalf("listing: %v", err)
				}
				query = page.Items[0].Email
			}
			r := httptest.NewRequest("POST", "/console/people", strings.NewReader("q="+query))
			r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
			body := f.searchPage(t, f.pages.consolePeople, r, "matches more than 5 people", query, c.broad)
			if listed := strings.Contains(body, "<tbody>"); listed == c.broad {
				t.Errorf("lists people: %v", listed)
			}
		})
	}
}
