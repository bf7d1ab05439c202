package httpapi_test

import (
	"bytes"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/edu-invite/invite/shared/httpapi"
	"github.com/edu-invite/invite/shared/middleware"
	"github.com/edu-invite/invite/shared/secrets"
)

// TestRequestsNotThroughCloudFrontAreRefused: with the origin secret
// configured, a request without it (the execute-api address reached
// directly) or with a wrong one is 403 with the spec's error body before
// authentication, and changes nothing; with it the request is served.
func TestRequestsNotThroughCloudFrontAreRefused(t *testing.T) {
	const secret = "origin-secret-of-the-test-0123456789abcdef"
	t.Setenv("TEST_ORIGIN_VERIFY", secret)
	w := newWorld(t)
	var logs bytes.Buffer
	w.API.Origin = &middleware.OriginCheck{Secrets: secrets.NewResolver(nil, time.Minute), Ref: "env:TEST_ORIGIN_VERIFY",
		Logger: slog.New(slog.NewJSONHandler(&logs, nil))}
	w.Server = w.API.Local()
	const body = `{"name": "Through the front door", "organizationGUID": "org-a", "defaultExpiryDays": 30,
		"applicationUsages": [{"landingPage": "https://wiki.example.org", "application": {"manageId": "wiki", "manageType": "SAML20_SP"}}]}`
	send := func(header string, set bool, method, path, body string) (int, string) {
		req, _ := http.NewRequest(method, path, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("X-API-TOKEN", superTokenValue)
		if set {
			req.Header.Set(middleware.OriginHeader, header)
		}
		rec := httptest.NewRecorder()
		w.Server.ServeHTTP(rec, req)
		return rec.Code, rec.Body.String()
	}
	for _, tc := range []struct {
		name, header string
		set          bool
	}{{"missing", "", false}, {"empty", "", true}, {"wrong", "guessed-" + secret[:8], true}} {
		code, raw := send(tc.header, tc.set, "POST", "/api/v1/roles", body)
		if code != http.StatusForbidden {
			t.Fatalf("%s header: %d %s", tc.name, code, raw)
		}
		rec := httptest.NewRecorder()
		rec.Code = code
		rec.Body.WriteString(raw)
		e := decode[httpapi.ErrorBody](t, rec)
		if e.Status != 403 || e.Error != "Forbidden" || e.Exception != "UserRestrictionException" || e.Path != "/api/v1/roles" ||
			!strings.Contains(e.Message, "public address") || e.Timestamp == 0 {
			t.Errorf("%s header: error body %+v", tc.name, e)
		}
	}
	// Nothing was created: the role list (read with the secret) lacks it.
	code, list := send(secret, true, "GET", "/api/v1/roles", "")
	if code != http.StatusOK {
		t.Fatalf("role list with the secret: %d %s", code, list)
	}
	if strings.Contains(list, "Through the front door") {
		t.Errorf("a refused request created the role: %s", list)
	}
	if code, raw := send(secret, true, "POST", "/api/v1/roles", body); code != http.StatusOK && code != http.StatusCreated {
		t.Fatalf("with the secret: %d %s", code, raw)
	}
	if _, list := send(secret, true, "GET", "/api/v1/roles", ""); !strings.Contains(list, "Through the front door") {
		t.Errorf("the role made with the secret is not listed")
	}
	// An unknown path answers 403 too, not 404: nothing about the API is
	// told to a caller who went around CloudFront.
	if code, _ := send("", false, "GET", "/api/v1/nothing-here", ""); code != http.StatusForbidden {
		t.Errorf("unknown path without the secret: %d", code)
	}
	if strings.Contains(logs.String(), secret) || strings.Contains(logs.String(), "guessed-") {
		t.Errorf("the log holds the secret or a presented value: %s", logs.String())
	}
	if !strings.Contains(logs.String(), "origin secret refused") {
		t.Errorf("refusals are not logged: %s", logs.String())
	}
}
