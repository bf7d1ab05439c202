package main

import (
	"sort"
	"strings"
	"testing"

	"github.com/aws/jsii-runtime-go"
)

var expectedRoutePrefixes = map[string][]string{
	"users": {"/api/v1/users", "/api/external/v1/users", "/api/v1/user_roles", "/api/external/v1/user_roles", "/api/external/v1/internal/invite/user_roles",
		"/api/external/v1/voot", "/api/external/v1/aa", "/api/external/v1/deprovision", "/api/external/v1/profile"},
	"roles":       {"/api/v1/roles", "/api/internal/roles", "/api/external/v1/roles", "/api/external/v1/internal/invite/roles", "/api/external/v1/internal/invite/roles-summary"},
	"invitations": {"/api/v1/invitations", "/api/internal/invitations", "/api/external/v1/invitations", "/api/external/v1/internal/invite/invitations"},
	"crm":         {"/crm", "/api/profile", "/api/external/v1/invite/crm"},
	"tokens":      {"/api/v1/tokens", "/api/v1/user_roles_audit", "/api/external/v1/tokens", "/api/external/v1/user_roles_audit"},
	"system":      {"/api/v1/system", "/api/v1/manage", "/api/external/v1/system", "/api/external/v1/manage", "/api/docs", "/health", "/api/v1/validations", "/api/external/v1/validations"},
	"web":         {"/invitation", "/login", "/logout", "/my", "/static", "/console"},
}

// TestRoutesReachTheirFunctions maps every route of the API to the function
// behind it and compares the whole map, so a missing, extra or misrouted
// path fails.
func TestRoutesReachTheirFunctions(t *testing.T) {
	s := defaultScenario.synth(t)
	want := map[string]string{}
	for fn, prefixes := range expectedRoutePrefixes {
		for _, p := range prefixes {
			want["ANY "+p] = fn
			want["ANY "+p+"/{proxy+}"] = fn
		}
	}
	want["ANY /"] = "web" // the pages' start page
	// The reference client's session routes need the browser session:
	// exactly these paths go to the pages, the rest of /api/v1/users to users.
	for _, p := range []string{"/api/v1/users/login", "/api/v1/users/logout", "/api/v1/users/error", "/api/v1/csrf", "/api/v1/disclaimer"} {
		want["ANY "+p] = "web"
	}

	functionByID := map[string]string{}
	for _, name := range expectedFunctionNames {
		functionByID[s.functionID(t, name)] = name
	}
	integrations := s.resources("AWS::ApiGatewayV2::Integration")
	got := map[string]string{}
	for _, route := range s.resources("AWS::ApiGatewayV2::Route") {
		p := properties(route)
		key := p["RouteKey"].(string)
		target := p["Target"].(map[string]any)["Fn::Join"].([]any)[1].([]any)
		integration := integrations[refID(target[1])]
		if integration == nil {
			t.Errorf("route %s has no integration of the stack", key)
			continue
		}
		fn := functionByID[getAttID(properties(integration)["IntegrationUri"])]
		if fn == "" || !apiFunctionNames[fn] {
			t.Errorf("route %s reaches %v, which is not an API function", key, properties(integration)["IntegrationUri"])
		}
		if _, dup := got[key]; dup {
			t.Errorf("route %s is defined twice", key)
		}
		got[key] = fn
	}

	var diffs []string
	for k, v := range want {
		if got[k] != v {
			diffs = append(diffs, k+": got "+got[k]+", want "+v)
		}
	}
	for k, v := range got {
		if _, ok := want[k]; !ok {
			diffs = append(diffs, k+": unexpected route to "+v)
		}
	}
	sort.Strings(diffs)
	if len(diffs) > 0 {
		t.Errorf("routes differ:\n  %s", strings.Join(diffs, "\n  "))
	}
}

func TestAPIStageThrottlingAndOutput(t *testing.T) {
	bothScenarios(t, func(t *testing.T, s *scenario) {
		rate := map[string]float64{"default": 50, "custom": 20}[s.name]
		burst := map[string]float64{"default": 100, "custom": 40}[s.name]
		expect(t, func() { s.template.ResourceCountIs(jsii.String("AWS::ApiGatewayV2::Stage"), jsii.Number(1)) })
		expect(t, func() {
			s.template.HasResourceProperties(jsii.String("AWS::ApiGatewayV2::Stage"), map[string]any{
				"StageName":  "$default",
				"AutoDeploy": true,
				"DefaultRouteSettings": map[string]any{
					"ThrottlingRateLimit":  rate,
					"ThrottlingBurstLimit": burst,
				},
			})
		})
		api := s.onlyID(t, "AWS::ApiGatewayV2::Api")
		expect(t, func() {
			s.template.HasOutput(jsii.String("ApiUrl"), map[string]any{
				"Value": map[string]any{"Fn::GetAtt": []any{api, "ApiEndpoint"}},
			})
		})
	})
}
