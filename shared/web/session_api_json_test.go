package web

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestErrorReportRefusesAmbiguousJSON: the client's error report, the one
// JSON body the pages read, refuses what the API refuses: invalid UTF-8,
// lone surrogates and keys given twice.
func TestErrorReportRefusesAmbiguousJSON(t *testing.T) {
	rig := newSessionRig(t, 0, 0)
	b := browser{}
	rig.signIn(b)
	post := func(body string) int {
		req := httptest.NewRequest(http.MethodPost, "https://invite.example.org/api/v1/users/error", strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		for name, value := range b {
			req.AddCookie(&http.Cookie{Name: name, Value: value})
		}
		rec := httptest.NewRecorder()
		rig.handler.ServeHTTP(rec, req)
		return rec.Code
	}
	if code := post(`{"name":"TypeError","url":"/console"}`); code != http.StatusCreated {
		t.Fatalf("a plain report: %d", code)
	}
	for _, body := range []string{"{\"name\":\"\xff\"}", `{"name":"\ud800"}`, `{"name":"a","NAME":"b"}`} {
		if code := post(body); code != http.StatusBadRequest {
			t.Errorf("%q: %d, want 400", body, code)
		}
	}
}
