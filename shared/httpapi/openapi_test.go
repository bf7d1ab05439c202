package httpapi

import (
	"encoding/json"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
)

var allGroups = []Group{GroupUsers, GroupRoles, GroupInvitations, GroupCRM, GroupTokens, GroupSystem}

// TestOpenAPIDocumentsEveryRoute is the CI check of the issue: no route
// undocumented, no documented route missing, and every route served by
// the Lambda that API Gateway sends its path to.
func TestOpenAPIDocumentsEveryRoute(t *testing.T) {
	doc, err := OpenAPI()
	if err != nil {
		t.Fatal(err)
	}
	documented, err := documentedRoutes(doc)
	if err != nil {
		t.Fatal(err)
	}
	a := &API{}
	var served []string
	for _, g := range allGroups {
		for _, pattern := range a.Routes(g) {
			served = append(served, pattern)
			if !routedTo(g, pattern) {
				t.Errorf("%s is served by group %s but API Gateway routes its path elsewhere (see Prefixes)", pattern, g)
			}
		}
	}
	// The pages serve the session routes (WebRoutes); shared/app's
	// TestWebServesTheDocumentedSessionRoutes checks them against the
	// pages' route table.
	served = append(served, WebRoutes...)
	slices.Sort(served)
	for _, r := range served {
		if _, found := slices.BinarySearch(documented, r); !found {
			t.Errorf("route %s is not in the OpenAPI document (shared/httpapi/openapi/*.json)", r)
		}
	}
	for _, r := range documented {
		if _, found := slices.BinarySearch(served, r); !found {
			t.Errorf("the OpenAPI document has %s, which no handler serves", r)
		}
	}
	if n := len(slices.Compact(slices.Clone(served))); n != len(served) {
		t.Errorf("a route is registered twice")
	}
}

func routedTo(g Group, pattern string) bool {
	_, path, _ := strings.Cut(pattern, " ")
	for _, p := range Prefixes[g] {
		if path == p || strings.HasPrefix(path, p+"/") {
			return true
		}
	}
	return false
}

func TestOpenAPIServed(t *testing.T) {
	rec := httptest.NewRecorder()
	(&API{}).Handler(GroupSystem).ServeHTTP(rec, httptest.NewRequest("GET", "/api/docs/openapi.json", nil))
	var doc struct {
		OpenAPI string         `json:"openapi"`
		Paths   map[string]any `json:"paths"`
	}
	if rec.Code != 200 || json.Unmarshal(rec.Body.Bytes(), &doc) != nil || doc.OpenAPI == "" || len(doc.Paths) == 0 {
		t.Fatalf("status %d, body %.200s", rec.Code, rec.Body.String())
	}
}

// TestOpenAPIOperationsAnswer2xx is the linter's operation-2xx-response
// rule (off in apidocs/redocly.yaml) with its one exception: the browser
// sign-in only redirects.
func TestOpenAPIOperationsAnswer2xx(t *testing.T) {
	raw, err := OpenAPI()
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Paths map[string]map[string]struct {
			Responses map[string]json.RawMessage `json:"responses"`
		} `json:"paths"`
	}
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	redirectOnly := map[string]bool{"GET /api/v1/users/login": true,
		"GET /api/v1/users/ms-accept-return/{manageId}/{userId}": true, "GET /api/external/v1/users/ms-accept-return/{manageId}/{userId}": true}
	// Operations that answer only an error, by a README decision (the
	// reference's behaviour needs a system this service does not have).
	refusedByDecision := map[string]string{
		"GET /api/external/v1/users/login": "403", "GET /api/external/v1/users/logout": "403", "POST /api/external/v1/users/error": "403",
		"GET /api/v1/manage/eduid-identity-provider": "404", "GET /api/external/v1/manage/eduid-identity-provider": "404",
		"GET /api/v1/manage/organization-guid-validation/{organizationGUID}":          "404",
		"GET /api/external/v1/manage/organization-guid-validation/{organizationGUID}": "404",
	}
	for path, ops := range doc.Paths {
		for method, op := range ops {
			key := strings.ToUpper(method) + " " + path
			has2xx, has3xx := false, false
			for code := range op.Responses {
				has2xx = has2xx || strings.HasPrefix(code, "2")
				has3xx = has3xx || strings.HasPrefix(code, "3")
			}
			if redirectOnly[key] {
				if !has3xx || has2xx {
					t.Errorf("%s must document its redirect only", key)
				}
				continue
			}
			if status, ok := refusedByDecision[key]; ok {
				if _, documented := op.Responses[status]; !documented || has2xx {
					t.Errorf("%s must document its %s and no 2xx", key, status)
				}
				continue
			}
			if !has2xx {
				t.Errorf("%s documents no 2xx response", key)
			}
		}
	}
}
