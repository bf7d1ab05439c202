package web

import (
	"context"
	"net/http"
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
			r = r.WithContext(context.WithValue(r.Context(), visitKey{}, &visit{principal: f.super, acceptLanguage: "en"}))
			w := httptest.NewRecorder()
			f.pages.consolePeople(w, r)
			body := w.Body.String()
			if w.Code != http.StatusOK {
				t.Fatalf("status %d", w.Code)
			}
			said := strings.Contains(body, "matches more than 5 people") && strings.Contains(body, `aria-describedby="q-error"`)
			if said != c.broad {
				t.Errorf("says the query is too broad: %v, want %v", said, c.broad)
			}
			if !strings.Contains(body, `value="`+query+`"`) {
				t.Errorf("the typed query %q is not kept", query)
			}
			if listed := strings.Contains(body, "<tbody>"); listed == c.broad {
				t.Errorf("lists people: %v", listed)
			}
		})
	}
}
