package main

import (
	"slices"
	"strings"
	"testing"

	"github.com/aws/aws-cdk-go/awscdk/v2"
	"github.com/aws/aws-cdk-go/awscdk/v2/assertions"
	"github.com/aws/jsii-runtime-go"
)

// TestHTTPAPIAccessLog: the $default stage logs every request as one JSON
// line to a log group of its own, kept as long as the functions' logs, and
// the line holds no query string, header, cookie or body.
func TestHTTPAPIAccessLog(t *testing.T) {
	bothScenarios(t, func(t *testing.T, s *scenario) {
		days := map[string]float64{"default": 30, "custom": 90}[s.name]
		var stage map[string]any
		for _, r := range s.resources("AWS::ApiGatewayV2::Stage") {
			stage = properties(r)
		}
		settings, _ := stage["AccessLogSettings"].(map[string]any)
		if settings == nil {
			t.Fatalf("the stage has no access log: %v", stage)
		}
		group := getAttID(settings["DestinationArn"])
		res, _ := s.raw["Resources"].(map[string]any)[group].(map[string]any)
		if res == nil || res["Type"] != "AWS::Logs::LogGroup" {
			t.Fatalf("access log destination %v is not a log group of the stack", settings["DestinationArn"])
		}
		if got := properties(res)["RetentionInDays"]; got != days {
			t.Errorf("access log retention %v days, want %v", got, days)
		}
		format, _ := settings["Format"].(string)
		for _, want := range []string{"$context.requestId", "$context.status", "$context.routeKey", "$context.integrationErrorMessage"} {
			if !strings.Contains(format, want) {
				t.Errorf("access log format lacks %s: %s", want, format)
			}
		}
		for _, never := range []string{"querystring", "header", "cookie", "authorizer", "requestOverride"} {
			if strings.Contains(strings.ToLower(format), strings.ToLower(never)) {
				t.Errorf("access log format logs %s: %s", never, format)
			}
		}
	})
}

// TestCloudFrontAccessLog: CloudFront's access log is delivered (standard
// logging v2, from us-east-1) with chosen fields, never the query string,
// cookies or referrer, to a bucket that is private, encrypted, TLS-only
// (1.2 and later), owner-enforced and expires its logs after the log
// retention; only the log delivery of this account may write to it.
func TestCloudFrontAccessLog(t *testing.T) {
	bothScenarios(t, func(t *testing.T, s *scenario) {
		days := map[string]float64{"default": 30, "custom": 90}[s.name]
		m := s.edgeMonitoring
		expect(t, func() { s.template.ResourceCountIs(jsii.String("AWS::S3::Bucket"), jsii.Number(0)) })
		expect(t, func() {
			m.HasResourceProperties(jsii.String("AWS::Logs::DeliverySource"), map[string]any{
				"LogType": "ACCESS_LOGS",
				"ResourceArn": map[string]any{"Fn::Join": []any{"", assertions.Match_ArrayWith(&[]any{
					assertions.Match_StringLikeRegexp(jsii.String(":cloudfront::123456789012:distribution/$"))})}},
			})
		})
		raw, err := rawTemplate(m)
		if err != nil {
			t.Fatal(err)
		}
		var fields []string
		for _, r := range raw["Resources"].(map[string]any) {
			if r.(map[string]any)["Type"] == "AWS::Logs::Delivery" {
				for _, f := range asList(properties(r.(map[string]any))["RecordFields"]) {
					fields = append(fields, f.(string))
				}
			}
		}
		for _, want := range []string{"date", "time", "c-ip", "cs-method", "cs-uri-stem", "sc-status", "x-edge-request-id"} {
			if !slices.Contains(fields, want) {
				t.Errorf("CloudFront log fields %v lack %s", fields, want)
			}
		}
		for _, never := range []string{"cs-uri-query", "cs(Cookie)", "cs(Referer)"} {
			if slices.Contains(fields, never) {
				t.Errorf("CloudFront log fields include %s", never)
			}
		}
		bucket := ""
		for id, r := range raw["Resources"].(map[string]any) {
			if r.(map[string]any)["Type"] == "AWS::S3::Bucket" {
				bucket = id
			}
		}
		expect(t, func() {
			m.HasResourceProperties(jsii.String("AWS::Logs::DeliveryDestination"), map[string]any{
				"DestinationResourceArn": map[string]any{"Fn::GetAtt": []any{bucket, "Arn"}},
			})
		})
		expect(t, func() {
			m.HasResourceProperties(jsii.String("AWS::S3::Bucket"), map[string]any{
				"BucketEncryption": map[string]any{"ServerSideEncryptionConfiguration": []any{
					map[string]any{"ServerSideEncryptionByDefault": map[string]any{"SSEAlgorithm": "AES256"}}}},
				"PublicAccessBlockConfiguration": map[string]any{"BlockPublicAcls": true, "BlockPublicPolicy": true,
					"IgnorePublicAcls": true, "RestrictPublicBuckets": true},
				"OwnershipControls": map[string]any{"Rules": []any{map[string]any{"ObjectOwnership": "BucketOwnerEnforced"}}},
				"LifecycleConfiguration": map[string]any{"Rules": assertions.Match_ArrayWith(&[]any{
					assertions.Match_ObjectLike(&map[string]any{"ExpirationInDays": days, "Status": "Enabled"})})},
			})
		})
		expect(t, func() {
			m.HasResourceProperties(jsii.String("AWS::S3::BucketPolicy"), map[string]any{
				"Bucket": map[string]any{"Ref": bucket},
				"PolicyDocument": assertions.Match_ObjectLike(&map[string]any{"Statement": assertions.Match_ArrayWith(&[]any{
					assertions.Match_ObjectLike(&map[string]any{"Effect": "Deny", "Action": "s3:*",
						"Condition": map[string]any{"Bool": map[string]any{"aws:SecureTransport": "false"}}}),
					assertions.Match_ObjectLike(&map[string]any{"Effect": "Deny", "Action": "s3:*",
						"Condition": map[string]any{"NumericLessThan": map[string]any{"s3:TlsVersion": 1.2}}}),
					assertions.Match_ObjectLike(&map[string]any{"Effect": "Allow", "Action": "s3:PutObject",
						"Principal": map[string]any{"Service": "delivery.logs.amazonaws.com"},
						"Condition": assertions.Match_ObjectLike(&map[string]any{
							"StringEquals": assertions.Match_ObjectLike(&map[string]any{"aws:SourceAccount": "123456789012"})})}),
				})}),
			})
		})
	})
}

// TestCloudFrontServerErrorAlarm: the alarm on the distribution's 5xx rate
// is in us-east-1, where CloudFront's metrics are, names the distribution
// of the service's stack, and notifies a topic there with the operators'
// subscription.
func TestCloudFrontServerErrorAlarm(t *testing.T) {
	bothScenarios(t, func(t *testing.T, s *scenario) {
		stack := s.stack.Node().Scope().Node().FindChild(jsii.String(edgeMonitoringStackName)).(awscdk.Stack)
		if got := *stack.Region(); got != edgeRegion {
			t.Errorf("CloudFront alarm stack region = %s, want %s", got, edgeRegion)
		}
		expect(t, func() {
			s.edgeMonitoring.HasResourceProperties(jsii.String("AWS::CloudWatch::Alarm"), map[string]any{
				"Namespace": "AWS/CloudFront", "MetricName": "5xxErrorRate", "Statistic": "Average", "Threshold": 1.0,
				"Dimensions": assertions.Match_ArrayWith(&[]any{
					map[string]any{"Name": "DistributionId", "Value": assertions.Match_ObjectLike(&map[string]any{
						"Fn::GetAtt": assertions.Match_ArrayWith(&[]any{assertions.Match_StringLikeRegexp(jsii.String("RefDistribution"))})})},
					map[string]any{"Name": "Region", "Value": "Global"},
				}),
				"AlarmActions": []any{map[string]any{"Ref": assertions.Match_AnyValue()}},
			})
		})
		subscriptions := map[string]float64{"default": 0, "custom": 1}[s.name]
		expect(t, func() {
			s.edgeMonitoring.ResourceCountIs(jsii.String("AWS::SNS::Subscription"), jsii.Number(subscriptions))
		})
	})
}
