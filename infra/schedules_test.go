package main

import (
	"testing"

	"github.com/aws/aws-cdk-go/awscdk/v2/assertions"
	"github.com/aws/jsii-runtime-go"
)

func TestScheduledJobs(t *testing.T) {
	s := defaultScenario.synth(t)
	expect(t, func() { s.template.ResourceCountIs(jsii.String("AWS::Events::Rule"), jsii.Number(5)) })
	cases := []struct{ function, schedule string }{
		{"expiry", "rate(1 hour)"},
		{"cleanup", "cron(0 3 * * ? *)"}, // daily 03:00 UTC
		{"outbox-sweep", "rate(1 minute)"},
		{"reconcile", "cron(0 4 * * ? *)"}, // daily 04:00 UTC
	}
	for _, c := range cases {
		t.Run(c.function, func(t *testing.T) {
			fnID := s.functionID(t, c.function)
			expect(t, func() {
				s.template.HasResourceProperties(jsii.String("AWS::Events::Rule"), map[string]any{
					"ScheduleExpression": c.schedule,
					"State":              "ENABLED",
					"Targets": []any{map[string]any{
						"Arn": map[string]any{"Fn::GetAtt": []any{fnID, "Arn"}},
						"Id":  "Target0",
						"RetryPolicy": map[string]any{
							"MaximumRetryAttempts":     float64(2),
							"MaximumEventAgeInSeconds": float64(3600),
						},
					}},
				})
			})
			// EventBridge may invoke the function, and only its own rule.
			expect(t, func() {
				s.template.HasResourceProperties(jsii.String("AWS::Lambda::Permission"), map[string]any{
					"Action":       "lambda:InvokeFunction",
					"Principal":    "events.amazonaws.com",
					"FunctionName": map[string]any{"Fn::GetAtt": []any{fnID, "Arn"}},
				})
			})
		})
	}
}

// The SES configuration set publishes bounces and complaints to the default
// event bus, and a rule hands those of the service's own mails to the
// mail-events function, with retries (it ignores repeats).
func TestMailEventsReachTheirFunction(t *testing.T) {
	s := defaultScenario.synth(t)
	configSet := s.onlyID(t, "AWS::SES::ConfigurationSet")
	fnID := s.functionID(t, "mail-events")
	expect(t, func() {
		s.template.HasResourceProperties(jsii.String("AWS::SES::ConfigurationSet"), map[string]any{
			"SuppressionOptions": map[string]any{"SuppressedReasons": []any{"BOUNCE", "COMPLAINT"}},
		})
	})
	expect(t, func() {
		s.template.HasResourceProperties(jsii.String("AWS::SES::ConfigurationSetEventDestination"), map[string]any{
			"ConfigurationSetName": map[string]any{"Ref": configSet},
			"EventDestination": map[string]any{
				"Enabled":                true,
				"MatchingEventTypes":     []any{"bounce", "complaint"},
				"EventBridgeDestination": map[string]any{"EventBusArn": assertions.Match_AnyValue()},
			},
		})
	})
	expect(t, func() {
		s.template.HasResourceProperties(jsii.String("AWS::Events::Rule"), map[string]any{
			"EventPattern": map[string]any{
				"source":      []any{"aws.ses"},
				"detail-type": []any{"Email Bounced", "Email Complaint Received"},
				"detail":      map[string]any{"mail": map[string]any{"tags": map[string]any{"ses:configuration-set": []any{map[string]any{"Ref": configSet}}}}},
			},
			"Targets": []any{map[string]any{
				"Arn":         map[string]any{"Fn::GetAtt": []any{fnID, "Arn"}},
				"Id":          "Target0",
				"RetryPolicy": map[string]any{"MaximumRetryAttempts": float64(10), "MaximumEventAgeInSeconds": float64(86400)},
			}},
		})
	})
}
