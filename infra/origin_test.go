package main

import (
	"encoding/json"
	"fmt"
	"os/exec"
	"strings"
	"testing"

	"github.com/aws/aws-cdk-go/awscdk/v2/assertions"
	"github.com/aws/jsii-runtime-go"
)

// TestDistributionSendsTheOriginSecret: CloudFront's one origin carries
// X-Origin-Verify, its value a dynamic reference to the stack's generated
// invite/origin-verify secret (the template holds no value), pinned to a
// version when originSecretVersion is given (how a rotation reaches
// CloudFront).
func TestDistributionSendsTheOriginSecret(t *testing.T) {
	bothScenarios(t, func(t *testing.T, s *scenario) {
		secret := s.logicalID(t, "AWS::SecretsManager::Secret", "Name", originVerifySecretName)
		gen, _ := properties(s.raw["Resources"].(map[string]any)[secret].(map[string]any))["GenerateSecretString"].(map[string]any)
		if gen["ExcludePunctuation"] != true || gen["PasswordLength"].(float64) < 32 {
			t.Errorf("origin secret generation = %v, want a long value without punctuation (header-safe)", gen)
		}
		dist := properties(s.raw["Resources"].(map[string]any)[s.onlyID(t, "AWS::CloudFront::Distribution")].(map[string]any))["DistributionConfig"].(map[string]any)
		origin := dist["Origins"].([]any)[0].(map[string]any)
		headers, _ := origin["OriginCustomHeaders"].([]any)
		if len(headers) != 1 {
			t.Fatalf("origin custom headers = %v, want X-Origin-Verify only", headers)
		}
		h := headers[0].(map[string]any)
		version := map[string]string{"default": "", "custom": "9f8e7d6c-1111-2222-3333-444455556666"}[s.name]
		want := map[string]any{"Fn::Join": []any{"", []any{"{{resolve:secretsmanager:", map[string]any{"Ref": secret}, ":SecretString:::" + version + "}}"}}}
		if h["HeaderName"] != "X-Origin-Verify" || fmt.Sprint(h["HeaderValue"]) != fmt.Sprint(want) {
			t.Errorf("origin header = %v, want X-Origin-Verify = %v", h, want)
		}
	})
}

// TestAPIFunctionsReadExactlyTheOriginSecret: every function behind the API
// (and only those) gets ORIGIN_VERIFY_SECRET_ARN, the ARN of that secret,
// and may read that one secret and no other through it; no function may
// do more with it than read it.
func TestAPIFunctionsReadExactlyTheOriginSecret(t *testing.T) {
	bothScenarios(t, func(t *testing.T, s *scenario) {
		secret := s.logicalID(t, "AWS::SecretsManager::Secret", "Name", originVerifySecretName)
		for _, spec := range functionSpecs {
			env := s.environment(t, spec.Name)
			arn, has := env["ORIGIN_VERIFY_SECRET_ARN"]
			if has != (spec.Kind == apiFunction) {
				t.Errorf("%s: ORIGIN_VERIFY_SECRET_ARN set %v, want %v (API functions only)", spec.Name, has, spec.Kind == apiFunction)
			}
			if has && refID(arn) != secret {
				t.Errorf("%s: ORIGIN_VERIFY_SECRET_ARN = %v, want {Ref: %s}", spec.Name, arn, secret)
			}
			fn := s.function(t, spec.Name)
			var onSecret []string
			for _, st := range s.roleStatements(t, getAttID(fn["Role"])) {
				for _, r := range asList(st["Resource"]) {
					b, _ := json.Marshal(r)
					if strings.Contains(string(b), `"`+secret+`"`) || strings.Contains(string(b), "origin-verify") {
						for _, a := range asList(st["Action"]) {
							onSecret = append(onSecret, fmt.Sprint(a)+" on "+string(b))
						}
					}
				}
			}
			want := []string{}
			if spec.Kind == apiFunction {
				want = []string{`secretsmanager:GetSecretValue on {"Ref":"` + secret + `"}`}
			}
			if fmt.Sprint(onSecret) != fmt.Sprint(want) {
				t.Errorf("%s: grants on the origin secret = %v, want %v", spec.Name, onSecret, want)
			}
		}
	})
}

// TestViewerAddressReachesTheOrigin: the failed-sign-in throttle counts by
// the viewer's address. AllViewerExceptHostHeader (kept: API Gateway
// refuses the viewer's Host) forwards viewer headers only, not
// CloudFront-Viewer-Address, so a viewer-request function on the pages and
// API behaviour writes X-Viewer-Address from event.viewer.ip, replacing any
// value the viewer sent. The function's code is run here in Node.
func TestViewerAddressReachesTheOrigin(t *testing.T) {
	s := defaultScenario.synth(t)
	dist := properties(s.raw["Resources"].(map[string]any)[s.onlyID(t, "AWS::CloudFront::Distribution")].(map[string]any))["DistributionConfig"].(map[string]any)
	def := dist["DefaultCacheBehavior"].(map[string]any)
	if def["OriginRequestPolicyId"] != allViewerExceptHostHeaderPolicyID {
		t.Errorf("origin request policy = %v, want AllViewerExceptHostHeader", def["OriginRequestPolicyId"])
	}
	fnID := s.onlyID(t, "AWS::CloudFront::Function")
	assoc, _ := def["FunctionAssociations"].([]any)
	if len(assoc) != 1 || assoc[0].(map[string]any)["EventType"] != "viewer-request" ||
		getAttID(assoc[0].(map[string]any)["FunctionARN"]) != fnID {
		t.Fatalf("function associations = %v, want the viewer-address function on viewer-request", assoc)
	}
	expect(t, func() {
		s.template.HasResourceProperties(jsii.String("AWS::CloudFront::Function"), map[string]any{
			"AutoPublish":    true,
			"FunctionConfig": assertions.Match_ObjectLike(&map[string]any{"Runtime": "cloudfront-js-2.0"}),
		})
	})
	code := properties(s.raw["Resources"].(map[string]any)[fnID].(map[string]any))["FunctionCode"].(string)

	node, err := exec.LookPath("node")
	if err != nil {
		t.Fatalf("node (which the CDK synthesis needs too) is missing: %v", err)
	}
	script := code + `
var out = handler({viewer: {ip: "203.0.113.9"}, request: {method: "GET", uri: "/api/v1/me",
  headers: {"x-viewer-address": {value: "10.0.0.1"}, "authorization": {value: "Bearer x"}}}});
process.stdout.write(JSON.stringify(out));`
	raw, err := exec.Command(node, "-e", script).Output()
	if err != nil {
		t.Fatalf("run the function: %v", err)
	}
	var out struct {
		URI     string                       `json:"uri"`
		Headers map[string]map[string]string `json:"headers"`
	}
	if err := json.Unmarshal(raw, &out); err != nil {
		t.Fatalf("function answered %s: %v", raw, err)
	}
	if out.Headers[strings.ToLower(viewerAddressHeader)]["value"] != "203.0.113.9" {
		t.Errorf("%s = %v, want the viewer's address 203.0.113.9 (not the forged 10.0.0.1)", viewerAddressHeader, out.Headers)
	}
	if out.URI != "/api/v1/me" || out.Headers["authorization"]["value"] != "Bearer x" {
		t.Errorf("the function changed more than the header: %s", raw)
	}
}
