package httpapi_test

import (
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"

	"github.com/edu-invite/invite/shared/auth"
	"github.com/edu-invite/invite/shared/httpapi"
)

// TestEveryJSONBodyRefusesAmbiguousText: every route that reads a JSON
// body refuses invalid UTF-8, lone surrogates and keys given twice
// (exactly or in another case) with the spec's error body, before it
// changes anything. A route reads JSON when a broken body gets "not valid
// JSON" from it (GET and DELETE are probed on the CRM paths only, where the
// reference's clients send bodies with them); the test fails when too few
// do, so that it cannot pass by finding none.
func TestEveryJSONBodyRefusesAmbiguousText(t *testing.T) {
	w := newCRMWorld(t)
	params := regexp.MustCompile(`\{[^}]+\}`)
	send := func(caller, method, path, body string) *httptest.ResponseRecorder {
		req := httptest.NewRequest(method, path, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		switch caller {
		case "superToken":
			req.Header.Set(auth.APITokenHeader, superTokenValue)
		case "crm":
			req.Header.Set(auth.CRMKeyHeader, crmKey)
		case "pdp":
			req.SetBasicAuth(pdpUser, pdpPassword)
		}
		rec := httptest.NewRecorder()
		w.Server.ServeHTTP(rec, req)
		return rec
	}
	bad := []struct{ name, body, says string }{
		{"invalid UTF-8", "{\"name\":\"\xff\",\"intendedAuthority\":\"GUEST\"}", "not valid UTF-8"},
		{"lone surrogate", `{"name":"\ud800","intendedAuthority":"GUEST"}`, "lone UTF-16 surrogate"},
		{"duplicate key", `{"name":"a","name":"b"}`, "appears twice"},
		{"case-variant key", `{"intendedAuthority":"GUEST","INTENDEDAUTHORITY":"MANAGER"}`, "appears twice"},
	}
	var jsonRoutes int
	for _, g := range []httpapi.Group{httpapi.GroupUsers, httpapi.GroupRoles, httpapi.GroupInvitations, httpapi.GroupCRM, httpapi.GroupTokens, httpapi.GroupSystem} {
		for _, pattern := range w.API.Routes(g) {
			method, path, _ := strings.Cut(pattern, " ")
			crmPath := strings.HasPrefix(path, "/crm") || strings.HasPrefix(path, "/api/profile")
			if (method == "GET" || method == "DELETE") && !crmPath {
				continue // no body; and a DELETE probed might delete the probe's own token
			}
			path = params.ReplaceAllString(path, "1")
			caller := ""
			for _, c := range []string{"superToken", "crm", "pdp"} {
				if strings.Contains(send(c, method, path, `{"name": `).Body.String(), "not valid JSON") {
					caller = c
					break
				}
			}
			if caller == "" {
				continue
			}
			jsonRoutes++
			before := len(w.Queue.Deliveries())
			for _, b := range bad {
				rec := send(caller, method, path, b.body)
				body := decode[map[string]any](t, rec)
				if rec.Code != http.StatusBadRequest || body["exception"] != "InvalidInputException" || body["path"] != path ||
					!strings.Contains(body["message"].(string), b.says) {
					t.Errorf("%s with %s: %d %s", pattern, b.name, rec.Code, rec.Body.String())
				}
			}
			if after := len(w.Queue.Deliveries()); after != before {
				t.Errorf("%s: refused bodies queued %d deliveries", pattern, after-before)
			}
		}
	}
	if jsonRoutes < 30 {
		t.Errorf("only %d routes read a JSON body: the probe is broken", jsonRoutes)
	}
	t.Logf("%d routes read a JSON body", jsonRoutes)
}
