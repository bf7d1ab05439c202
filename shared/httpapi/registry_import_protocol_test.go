package httpapi_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/edu-invite/invite/shared/httpapi"
)

// Issue 21 item 4 for the applications document: the import is a JSON write
// like the others (415 without Content-Type application/json), and its
// strict decoding names fields in JSON words, never Go types.
func TestRegistryImportNeedsJSONAndSpeaksJSON(t *testing.T) {
	w := newWorld(t)
	post := func(contentType, body string) *httptest.ResponseRecorder {
		req := httptest.NewRequest(http.MethodPost, "/api/v1/manage/registry/import", strings.NewReader(body))
		if contentType != "" {
			req.Header.Set("Content-Type", contentType)
		}
		req.Header.Set("Authorization", "Bearer super")
		rec := httptest.NewRecorder()
		w.Server.ServeHTTP(rec, req)
		return rec
	}
	for _, ct := range []string{"", "text/plain"} {
		if rec := post(ct, `{"applications": [], "provisionings": []}`); rec.Code != http.StatusUnsupportedMediaType {
			t.Errorf("Content-Type %q: %d %s", ct, rec.Code, rec.Body.String())
		}
	}
	for body, want := range map[string]string{
		`{"applications": {"manageId": 1}}`:         `field \"applications\" must be an array`,
		`{"applications": [{"manageId": ["x"]}]}`:   `must be a string`,
		`{"applications": [], "provisionigns": []}`: `unknown field \"provisionigns\"`,
		`{"applications": [], "\u202e": 1}`:         `unknown field`,
		`{"applications": []} {"applications": []}`: `one JSON value`,
	} {
		rec := post("application/json", body)
		e := decode[httpapi.ErrorBody](t, rec)
		if rec.Code != http.StatusBadRequest || !strings.Contains(rec.Body.String(), want) {
			t.Errorf("%s: %d %s, want %q", body, rec.Code, rec.Body.String(), want)
		}
		for _, goWord := range []string{"config.", "[]", "Go struct", "Go value", "json:"} {
			if strings.Contains(e.Message, goWord) {
				t.Errorf("%s: message %q shows %q", body, e.Message, goWord)
			}
		}
	}
}
