package main

import (
	"testing"

	"github.com/aws/jsii-runtime-go"
)

func TestScheduledJobs(t *testing.T) {
	s := defaultScenario.synth(t)
	expect(t, func() { s.template.ResourceCountIs(jsii.String("AWS::Events::Rule"), jsii.Number(3)) })
	cases := []struct{ function, schedule string }{
		{"expiry", "rate(1 hour)"},
		{"cleanup", "cron(0 3 * * ? *)"}, // daily 03:00 UTC
		{"outbox-sweep", "rate(1 minute)"},
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
