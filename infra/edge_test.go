package main

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/aws/aws-cdk-go/awscdk/v2"
	"github.com/aws/aws-cdk-go/awscdk/v2/assertions"
	"github.com/aws/jsii-runtime-go"
)

// CloudFront's managed policies, by the ids CloudFront gives them.
const (
	cachingDisabledPolicyID           = "4135ea2d-6df8-44a3-9df3-4b5a84be39ad"
	allViewerExceptHostHeaderPolicyID = "b689b0a8-53d0-40ab-baf2-68738e2966ac"
)

// TestWebACLRateRuleAndManagedRules: the edge stack is in us-east-1 and its
// WebACL (scope CLOUDFRONT) allows by default, blocks a source IP over the
// configured limit with 429, and runs the AWS managed rule groups in the
// configured mode (the common set's body-size rule always only counts).
func TestWebACLRateRuleAndManagedRules(t *testing.T) {
	bothScenarios(t, func(t *testing.T, s *scenario) {
		limit := map[string]float64{"default": defaultWAFRateLimit, "custom": 300}[s.name]
		override := map[string]map[string]any{"default": {"None": map[string]any{}}, "custom": {"Count": map[string]any{}}}[s.name]
		if region := s.edge.ToJSON(); region == nil {
			t.Fatal("no edge template")
		}
		edge := s.stack.Node().Scope().Node().FindChild(jsii.String(edgeStackName)).(awscdk.Stack)
		if got := *edge.Region(); got != edgeRegion {
			t.Errorf("edge stack region = %s, want %s", got, edgeRegion)
		}
		expect(t, func() { s.edge.ResourceCountIs(jsii.String("AWS::WAFv2::WebACL"), jsii.Number(1)) })
		expect(t, func() {
			s.edge.HasResourceProperties(jsii.String("AWS::WAFv2::WebACL"), map[string]any{
				"Scope":            "CLOUDFRONT",
				"DefaultAction":    map[string]any{"Allow": map[string]any{}},
				"VisibilityConfig": map[string]any{"CloudWatchMetricsEnabled": true, "SampledRequestsEnabled": true, "MetricName": "invite-webacl"},
				"Rules": []any{
					map[string]any{
						"Name": ruleRatePerIP, "Priority": 0,
						"Action": map[string]any{"Block": map[string]any{"CustomResponse": map[string]any{"ResponseCode": 429}}},
						"Statement": map[string]any{"RateBasedStatement": map[string]any{
							"Limit": limit, "AggregateKeyType": "IP", "EvaluationWindowSec": rateWindowSeconds}},
						"VisibilityConfig": assertions.Match_ObjectLike(&map[string]any{"CloudWatchMetricsEnabled": true}),
					},
					assertions.Match_ObjectLike(&map[string]any{
						"Name": ruleCommonRuleSet, "Priority": 1, "OverrideAction": override,
						"Statement": map[string]any{"ManagedRuleGroupStatement": map[string]any{
							"VendorName": "AWS", "Name": ruleCommonRuleSet,
							"RuleActionOverrides": []any{map[string]any{"Name": "SizeRestrictions_BODY", "ActionToUse": map[string]any{"Count": map[string]any{}}}},
						}},
					}),
					assertions.Match_ObjectLike(&map[string]any{
						"Name": ruleKnownBadInputs, "Priority": 2, "OverrideAction": override,
						"Statement": map[string]any{"ManagedRuleGroupStatement": map[string]any{"VendorName": "AWS", "Name": ruleKnownBadInputs}},
					}),
				},
			})
		})
	})
}

// TestWAFLogsRedactCredentials: the WebACL logs to aws-waf-logs-invite
// with the retention of the service's logs, never with tokens, cookies or
// query strings (invitation hashes, OIDC codes).
func TestWAFLogsRedactCredentials(t *testing.T) {
	bothScenarios(t, func(t *testing.T, s *scenario) {
		retention := map[string]float64{"default": 30, "custom": 90}[s.name]
		expect(t, func() {
			s.edge.HasResourceProperties(jsii.String("AWS::Logs::LogGroup"), map[string]any{
				"LogGroupName": wafLogGroupName, "RetentionInDays": retention})
		})
		var acl, logs string
		for id, r := range s.edgeRaw["Resources"].(map[string]any) {
			switch r.(map[string]any)["Type"] {
			case "AWS::WAFv2::WebACL":
				acl = id
			case "AWS::Logs::LogGroup":
				logs = id
			}
		}
		expect(t, func() {
			s.edge.HasResourceProperties(jsii.String("AWS::WAFv2::LoggingConfiguration"), map[string]any{
				"ResourceArn": map[string]any{"Fn::GetAtt": []any{acl, "Arn"}},
				// The log group's ARN without the ":*" WAF refuses.
				"LogDestinationConfigs": []any{map[string]any{"Fn::Join": []any{"", []any{
					"arn:", map[string]any{"Ref": "AWS::Partition"}, ":logs:us-east-1:123456789012:log-group:", map[string]any{"Ref": logs}}}}},
				"RedactedFields": []any{
					map[string]any{"QueryString": map[string]any{}},
					map[string]any{"SingleHeader": map[string]any{"Name": "authorization"}},
					map[string]any{"SingleHeader": map[string]any{"Name": "cookie"}},
					map[string]any{"SingleHeader": map[string]any{"Name": "x-api-token"}},
				},
			})
		})
	})
}

// TestDistributionGuardsTheAPI: CloudFront, associated with the edge
// stack's WebACL, is the only way in the stack points people to: its
// origin is the HTTP API; pages and API are not cached and get every
// viewer header but Host (cookies, Origin, Sec-Fetch-*, Authorization),
// every cookie and query string, every method; /static/* is cached.
func TestDistributionGuardsTheAPI(t *testing.T) {
	bothScenarios(t, func(t *testing.T, s *scenario) {
		expect(t, func() { s.template.ResourceCountIs(jsii.String("AWS::CloudFront::Distribution"), jsii.Number(1)) })
		dist := properties(s.raw["Resources"].(map[string]any)[s.onlyID(t, "AWS::CloudFront::Distribution")].(map[string]any))["DistributionConfig"].(map[string]any)

		// The association: WebACLId is the edge stack's WebACL ARN, carried
		// across regions by CDK's exports reader.
		ref, _ := dist["WebACLId"].(map[string]any)["Fn::GetAtt"].([]any)
		if len(ref) != 2 || !strings.HasPrefix(fmt.Sprint(ref[1]), "/cdk/exports/"+stackName+"/"+edgeStackName) || !strings.Contains(fmt.Sprint(ref[1]), "WebAclArn") {
			t.Errorf("WebACLId = %v, want the WebACL ARN of %s", dist["WebACLId"], edgeStackName)
		}

		api := s.onlyID(t, "AWS::ApiGatewayV2::Api")
		origins := dist["Origins"].([]any)
		if len(origins) != 1 {
			t.Fatalf("origins = %v, want the HTTP API only", origins)
		}
		origin := origins[0].(map[string]any)
		wantDomain := map[string]any{"Fn::Select": []any{2.0, map[string]any{"Fn::Split": []any{"/", map[string]any{"Fn::GetAtt": []any{api, "ApiEndpoint"}}}}}}
		if fmt.Sprint(origin["DomainName"]) != fmt.Sprint(wantDomain) {
			t.Errorf("origin domain = %v, want the HTTP API's host", origin["DomainName"])
		}
		if p := origin["CustomOriginConfig"].(map[string]any)["OriginProtocolPolicy"]; p != "https-only" {
			t.Errorf("origin protocol = %v, want https-only", p)
		}

		def := dist["DefaultCacheBehavior"].(map[string]any)
		if def["CachePolicyId"] != cachingDisabledPolicyID {
			t.Errorf("pages and API cache policy = %v, want CachingDisabled", def["CachePolicyId"])
		}
		if def["OriginRequestPolicyId"] != allViewerExceptHostHeaderPolicyID {
			t.Errorf("pages and API origin request policy = %v, want AllViewerExceptHostHeader", def["OriginRequestPolicyId"])
		}
		if got := fmt.Sprint(def["AllowedMethods"]); got != "[GET HEAD OPTIONS PUT PATCH POST DELETE]" {
			t.Errorf("pages and API methods = %s, want all", got)
		}
		if def["ViewerProtocolPolicy"] != "redirect-to-https" {
			t.Errorf("viewer protocol = %v", def["ViewerProtocolPolicy"])
		}

		behaviors := dist["CacheBehaviors"].([]any)
		if len(behaviors) != 1 {
			t.Fatalf("cache behaviours = %v, want /static/* only", behaviors)
		}
		static := behaviors[0].(map[string]any)
		if static["PathPattern"] != "/static/*" || fmt.Sprint(static["AllowedMethods"]) != "[GET HEAD]" {
			t.Errorf("static behaviour = %v", static)
		}
		expect(t, func() {
			s.template.HasResourceProperties(jsii.String("AWS::CloudFront::CachePolicy"), map[string]any{
				"CachePolicyConfig": assertions.Match_ObjectLike(&map[string]any{
					"ParametersInCacheKeyAndForwardedToOrigin": assertions.Match_ObjectLike(&map[string]any{
						"QueryStringsConfig": map[string]any{"QueryStringBehavior": "all"},
						"CookiesConfig":      map[string]any{"CookieBehavior": "none"},
					}),
				}),
			})
		})
		if refID(static["CachePolicyId"]) == "" {
			t.Errorf("static cache policy = %v, want the stack's own", static["CachePolicyId"])
		}
	})
}

// TestCustomDomainOnCloudFront: the domain and its us-east-1 certificate
// are CloudFront's, and the service's links use them; without a domain the
// links use the distribution's own name.
func TestCustomDomainOnCloudFront(t *testing.T) {
	s := customScenario.synth(t)
	expect(t, func() {
		s.template.HasResourceProperties(jsii.String("AWS::CloudFront::Distribution"), map[string]any{
			"DistributionConfig": assertions.Match_ObjectLike(&map[string]any{
				"Aliases": []any{"invite.example.edu"},
				"ViewerCertificate": map[string]any{
					"AcmCertificateArn":      customScenario.context[ctxCertificateArn],
					"MinimumProtocolVersion": "TLSv1.2_2021",
					"SslSupportMethod":       "sni-only",
				},
			}),
		})
	})
	d := defaultScenario.synth(t)
	if aliases := properties(d.raw["Resources"].(map[string]any)[d.onlyID(t, "AWS::CloudFront::Distribution")].(map[string]any))["DistributionConfig"].(map[string]any)["Aliases"]; aliases != nil {
		t.Errorf("default distribution aliases = %v, want none", aliases)
	}
}

// TestEdgeNeedsAccountAndRegionAndCanBeOff: the cross-region reference
// needs a concrete environment, which the error says how to give; edge=false
// (LocalStack) synthesizes the API alone.
func TestEdgeNeedsAccountAndRegionAndCanBeOff(t *testing.T) {
	cfg, err := LoadStackConfig(lookupFrom(map[string]any{ctxCodeDir: t.TempDir()}))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := buildStacks(awscdk.NewApp(nil), cfg, nil); err == nil || !strings.Contains(err.Error(), "CDK_DEFAULT_REGION") || !strings.Contains(err.Error(), "edge=false") {
		t.Errorf("error without an environment = %v, want how to give one or to turn the edge off", err)
	}

	cfg.Edge = false
	app := awscdk.NewApp(nil)
	stack, err := buildStacks(app, cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	if app.Node().TryFindChild(jsii.String(edgeStackName)) != nil {
		t.Errorf("edge=false still adds %s", edgeStackName)
	}
	tpl := assertions.Template_FromStack(stack, nil)
	expect(t, func() { tpl.ResourceCountIs(jsii.String("AWS::CloudFront::Distribution"), jsii.Number(0)) })
	// Without CloudFront nothing is checked: no origin secret, no function
	// told of one.
	raw, err := rawTemplate(tpl)
	if err != nil {
		t.Fatal(err)
	}
	for id, r := range raw["Resources"].(map[string]any) {
		res := r.(map[string]any)
		if res["Type"] == "AWS::SecretsManager::Secret" && properties(res)["Name"] == originVerifySecretName {
			t.Errorf("edge=false still creates the origin secret (%s)", id)
		}
		if res["Type"] == "AWS::Lambda::Function" {
			env, _ := properties(res)["Environment"].(map[string]any)["Variables"].(map[string]any)
			if _, ok := env["ORIGIN_VERIFY_SECRET_ARN"]; ok {
				t.Errorf("edge=false: function %s gets ORIGIN_VERIFY_SECRET_ARN", id)
			}
		}
	}
	if b, _ := json.Marshal(raw); strings.Contains(string(b), "origin-verify") {
		t.Errorf("edge=false template mentions the origin secret")
	}
}

func TestEdgeContextValidation(t *testing.T) {
	for _, tc := range []struct {
		ctx  map[string]any
		want string
	}{
		{map[string]any{ctxWAFRateLimit: "5"}, "outside 10..2000000000"},
		{map[string]any{ctxWAFManagedRules: "off"}, "not block or count"},
		{map[string]any{ctxDomainName: "invite.example.edu"}, "go together"},
		{map[string]any{ctxDomainName: "invite.example.edu", ctxCertificateArn: "arn:aws:acm:eu-west-1:1:certificate/x"}, "only region CloudFront"},
		{map[string]any{ctxEdge: "false", ctxDomainName: "invite.example.edu", ctxCertificateArn: "arn:aws:acm:us-east-1:1:certificate/x"}, "needs edge=true"},
		{map[string]any{ctxOriginSecretVersion: "AWSCURRENT"}, "not a Secrets Manager version id"},
		{map[string]any{ctxEdge: "false", ctxOriginSecretVersion: "9f8e7d6c-1111-2222-3333-444455556666"}, "needs edge=true"},
	} {
		_, err := LoadStackConfig(lookupFrom(tc.ctx))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: error = %v, want %q", tc.ctx, err, tc.want)
		}
	}
}
