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
