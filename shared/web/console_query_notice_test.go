package web

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// searchPage serves a console search to h as the fixture's super user (in
// English, straight to the handler) and checks what every console list
// does with a query: the page is 200, it says next to the field that the
// query is too broad (notice, linked from the field) exactly when broad,
// and it keeps the typed query. It returns the page for the list's own
// checks.
func (f *consoleFixture) searchPage(t *testing.T, h http.HandlerFunc, r *http.Request, notice, query string, broad bool) string {
	t.Helper()
	r = r.WithContext(context.WithValue(r.Context(), visitKey{}, &visit{principal: f.super, acceptLanguage: "en"}))
	w := httptest.NewRecorder()
	h(w, r)
	body := w.Body.String()
	if w.Code != http.StatusOK {
		t.Fatalf("status %d", w.Code)
	}
	said := strings.Contains(body, notice) && strings.Contains(body, `aria-describedby="q-error"`)
	if said != broad {
		t.Errorf("says the query is too broad: %v, want %v", said, broad)
	}
	if !strings.Contains(body, `value="`+query+`"`) {
		t.Errorf("the typed query %q is not kept", query)
	}
	return body
}
