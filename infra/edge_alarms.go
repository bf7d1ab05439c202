package main

import (
	"github.com/aws/aws-cdk-go/awscdk/v2"
	"github.com/aws/aws-cdk-go/awscdk/v2/awscloudwatch"
	"github.com/aws/constructs-go/constructs/v10"
	"github.com/aws/jsii-runtime-go"
)

// CloudFront publishes its metrics in us-east-1 only, and an alarm watches
// the metrics of its own region, so the alarm on the distribution's 5xx
// answers lives in a us-east-1 stack of its own, deployed after the
// service's stack, whose distribution id it gets as a cross-region
// reference. It notifies a topic of its own region with the same
// subscription as the service's.
const edgeAlarmStackName = "InviteEdgeAlarmStack"

// cloudFrontErrorRatePercent is the share of 5xx answers over five minutes
// that alarms: the origin's 5xx (which the API's own alarm sees too) and
// CloudFront's (origin unreachable, origin TLS, timeouts), which only this
// one sees.
const cloudFrontErrorRatePercent = 1

// NewEdgeAlarmStack creates the us-east-1 stack of the CloudFront alarm.
func NewEdgeAlarmStack(scope constructs.Construct, id string, cfg StackConfig, distributionID *string, props *awscdk.StackProps) awscdk.Stack {
	stack := awscdk.NewStack(scope, jsii.String(id), props)
	topic := newAlarmTopic(stack, cfg)
	notify(stack, topic, "CloudFrontServerErrorsAlarm",
		"CloudFront answered 5xx to more than 1% of requests in five minutes; the API's alarm and the functions' logs say whether the origin failed.",
		awscloudwatch.NewMetric(&awscloudwatch.MetricProps{
			Namespace:     jsii.String("AWS/CloudFront"),
			MetricName:    jsii.String("5xxErrorRate"),
			DimensionsMap: &map[string]*string{"DistributionId": distributionID, "Region": jsii.String("Global")},
			Statistic:     jsii.String("Average"),
			Period:        awscdk.Duration_Minutes(jsii.Number(5)),
		}), cloudFrontErrorRatePercent)
	return stack
}
