package main

import (
	"testing"

	"github.com/aws/aws-cdk-go/awscdk/v2/assertions"
	"github.com/aws/jsii-runtime-go"
)

func TestSCIMQueueIsHighThroughputFIFO(t *testing.T) {
	bothScenarios(t, func(t *testing.T, s *scenario) {
		maxReceive := map[string]float64{"default": 100, "custom": 5}[s.name]
		dlq := s.logicalID(t, "AWS::SQS::Queue", "QueueName", scimDeadLetterQueueName)
		expect(t, func() { s.template.ResourceCountIs(jsii.String("AWS::SQS::Queue"), jsii.Number(2)) })
		expect(t, func() {
			s.template.HasResourceProperties(jsii.String("AWS::SQS::Queue"), map[string]any{
				"QueueName":                 scimQueueName,
				"FifoQueue":                 true,
				"ContentBasedDeduplication": false,
				"DeduplicationScope":        "messageGroup",
				"FifoThroughputLimit":       "perMessageGroupId",
				// Six times the provisioner's 60 s timeout.
				"VisibilityTimeout": float64(360),
				"RedrivePolicy": map[string]any{
					"deadLetterTargetArn": map[string]any{"Fn::GetAtt": []any{dlq, "Arn"}},
					"maxReceiveCount":     maxReceive,
				},
			})
		})
		expect(t, func() {
			s.template.HasResourceProperties(jsii.String("AWS::SQS::Queue"), map[string]any{
				"QueueName":              scimDeadLetterQueueName,
				"FifoQueue":              true,
				"MessageRetentionPeriod": float64(14 * 24 * 3600),
			})
		})
	})
}

func TestProvisionerConsumesTheQueueInBatchesWithPartialFailures(t *testing.T) {
	s := defaultScenario.synth(t)
	queue := s.logicalID(t, "AWS::SQS::Queue", "QueueName", scimQueueName)
	expect(t, func() { s.template.ResourceCountIs(jsii.String("AWS::Lambda::EventSourceMapping"), jsii.Number(1)) })
	expect(t, func() {
		s.template.HasResourceProperties(jsii.String("AWS::Lambda::EventSourceMapping"), map[string]any{
			"EventSourceArn":        map[string]any{"Fn::GetAtt": []any{queue, "Arn"}},
			"FunctionName":          map[string]any{"Ref": s.functionID(t, "provisioner")},
			"BatchSize":             float64(10),
			"FunctionResponseTypes": []any{"ReportBatchItemFailures"},
			// The per-SP rate holds across instances through the table;
			// the cap bounds the instances contending for it.
			"ScalingConfig": map[string]any{"MaximumConcurrency": float64(10)},
		})
	})
}

func TestQueueAlarmsNotifyTheAlarmTopic(t *testing.T) {
	bothScenarios(t, func(t *testing.T, s *scenario) {
		ageThreshold := map[string]float64{"default": 300, "custom": 600}[s.name]
		queue := s.logicalID(t, "AWS::SQS::Queue", "QueueName", scimQueueName)
		dlq := s.logicalID(t, "AWS::SQS::Queue", "QueueName", scimDeadLetterQueueName)
		topic := s.onlyID(t, "AWS::SNS::Topic")
		alarm := func(metric string, queueID string, threshold float64) map[string]any {
			return map[string]any{
				"Namespace":          "AWS/SQS",
				"MetricName":         metric,
				"Dimensions":         []any{map[string]any{"Name": "QueueName", "Value": map[string]any{"Fn::GetAtt": []any{queueID, "QueueName"}}}},
				"Threshold":          threshold,
				"ComparisonOperator": "GreaterThanOrEqualToThreshold",
				"AlarmActions":       []any{map[string]any{"Ref": topic}},
			}
		}
		// Three queue alarms, one error alarm per background function, the
		// provisioner's throttles and the API's 5xx (CloudFront's 5xx are
		// in the us-east-1 stack: TestCloudFrontServerErrorAlarm).
		expect(t, func() { s.template.ResourceCountIs(jsii.String("AWS::CloudWatch::Alarm"), jsii.Number(3+7+1+1)) })
		provisioner := s.functionID(t, "provisioner")
		expect(t, func() {
			s.template.HasResourceProperties(jsii.String("AWS::CloudWatch::Alarm"), map[string]any{
				"Namespace": "AWS/Lambda", "MetricName": "Throttles", "Statistic": "Sum", "Threshold": 1.0,
				"Dimensions":   []any{map[string]any{"Name": "FunctionName", "Value": map[string]any{"Ref": provisioner}}},
				"AlarmActions": []any{map[string]any{"Ref": topic}},
			})
		})
		expect(t, func() {
			s.template.HasResourceProperties(jsii.String("AWS::CloudWatch::Alarm"), map[string]any{
				"Namespace": "AWS/ApiGateway", "MetricName": "5xx", "Statistic": "Sum", "Threshold": 1.0,
				"AlarmActions": []any{map[string]any{"Ref": topic}},
			})
		})
		for _, name := range []string{"expiry", "cleanup", "outbox-sweep", "mail-events", "reconcile", "provisioner", "jobs"} {
			id := s.functionID(t, name)
			expect(t, func() {
				s.template.HasResourceProperties(jsii.String("AWS::CloudWatch::Alarm"), map[string]any{
					"Namespace": "AWS/Lambda", "MetricName": "Errors", "Statistic": "Sum", "Threshold": 1.0,
					"Dimensions":   []any{map[string]any{"Name": "FunctionName", "Value": map[string]any{"Ref": id}}},
					"AlarmActions": []any{map[string]any{"Ref": topic}},
				})
			})
		}
		expect(t, func() {
			s.template.HasResourceProperties(jsii.String("AWS::CloudWatch::Alarm"), alarm("ApproximateNumberOfMessagesVisible", dlq, 1))
		})
		expect(t, func() {
			s.template.HasResourceProperties(jsii.String("AWS::CloudWatch::Alarm"), alarm("ApproximateAgeOfOldestMessage", queue, ageThreshold))
		})
		// A dead letter a week old: a week before the DLQ's retention ends.
		expect(t, func() {
			s.template.HasResourceProperties(jsii.String("AWS::CloudWatch::Alarm"), alarm("ApproximateAgeOfOldestMessage", dlq, 7*24*3600))
		})
	})
}

func TestAlarmEmailSubscriptionOnlyWhenGiven(t *testing.T) {
	def := defaultScenario.synth(t)
	expect(t, func() { def.template.ResourceCountIs(jsii.String("AWS::SNS::Subscription"), jsii.Number(0)) })
	custom := customScenario.synth(t)
	expect(t, func() {
		custom.template.HasResourceProperties(jsii.String("AWS::SNS::Subscription"), map[string]any{
			"Protocol": "email",
			"Endpoint": "ops@example.org",
			"TopicArn": assertions.Match_AnyValue(),
		})
	})
}
