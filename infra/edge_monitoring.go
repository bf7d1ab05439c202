package main

import (
	"github.com/aws/aws-cdk-go/awscdk/v2"
	"github.com/aws/aws-cdk-go/awscdk/v2/awscloudwatch"
	"github.com/aws/aws-cdk-go/awscdk/v2/awsiam"
	"github.com/aws/aws-cdk-go/awscdk/v2/awslogs"
	"github.com/aws/constructs-go/constructs/v10"
	"github.com/aws/jsii-runtime-go"
)

// CloudFront publishes its metrics in us-east-1 only, an alarm watches the
// metrics of its own region, and CloudFront's access logs (standard logging
// v2) are delivered by a delivery source in us-east-1. So the alarm on the
// distribution's 5xx answers and its access logs live in a us-east-1 stack
// of their own, deployed after the service's stack, whose distribution id
// it gets as a cross-region reference. Its alarm notifies a topic of its own
// region with the same subscription as the service's.
const edgeMonitoringStackName = "InviteEdgeMonitoringStack"

// cloudFrontErrorRatePercent is the share of 5xx answers over five minutes
// that alarms: the origin's 5xx (which the API's own alarm sees too) and
// CloudFront's (origin unreachable, origin TLS, timeouts), which only this
// one sees.
const cloudFrontErrorRatePercent = 1

// cloudFrontLogFields are the fields of CloudFront's access log. Left out:
// the query string (the acceptance link's hash, the sign-in's code and
// state), the cookies (the session) and the referrer (a page's address with
// its query string).
var cloudFrontLogFields = []string{"date", "time", "x-edge-location", "c-ip", "cs-method", "cs-uri-stem", "sc-status",
	"sc-bytes", "cs-bytes", "time-taken", "time-to-first-byte", "x-edge-request-id", "x-edge-result-type",
	"x-edge-response-result-type", "x-edge-detailed-result-type", "cs-protocol", "cs-protocol-version", "ssl-protocol",
	"sc-content-type", "cs(User-Agent)"}

// NewEdgeMonitoringStack creates the us-east-1 stack of the CloudFront
// alarm and access logs.
func NewEdgeMonitoringStack(scope constructs.Construct, id string, cfg StackConfig, distributionID *string, props *awscdk.StackProps) awscdk.Stack {
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
	addCloudFrontAccessLog(stack, cfg, distributionID)
	return stack
}

// addCloudFrontAccessLog delivers the distribution's access log, with
// cloudFrontLogFields only, to the access log bucket (under
// AWSLogs/<account>/): CloudWatch Logs' delivery (source, destination,
// delivery) writes it, as the log service of this account.
func addCloudFrontAccessLog(stack awscdk.Stack, cfg StackConfig, distributionID *string) {
	bucket := newAccessLogBucket(stack, cfg)
	bucket.AddToResourcePolicy(awsiam.NewPolicyStatement(&awsiam.PolicyStatementProps{
		Sid:        jsii.String("CloudFrontLogDelivery"),
		Principals: &[]awsiam.IPrincipal{awsiam.NewServicePrincipal(jsii.String("delivery.logs.amazonaws.com"), nil)},
		Actions:    jsii.Strings("s3:PutObject"),
		Resources:  &[]*string{bucket.ArnForObjects(jsii.String("AWSLogs/" + *stack.Account() + "/*"))},
		Conditions: &map[string]any{
			"StringEquals": map[string]any{"s3:x-amz-acl": "bucket-owner-full-control", "aws:SourceAccount": stack.Account()},
			"ArnLike":      map[string]any{"aws:SourceArn": stack.FormatArn(&awscdk.ArnComponents{Service: jsii.String("logs"), Resource: jsii.String("delivery-source"), ResourceName: jsii.String("*"), ArnFormat: awscdk.ArnFormat_COLON_RESOURCE_NAME})},
		},
	}))
	source := awslogs.NewCfnDeliverySource(stack, jsii.String("CloudFrontLogSource"), &awslogs.CfnDeliverySourceProps{
		Name:    jsii.String("invite-cloudfront"),
		LogType: jsii.String("ACCESS_LOGS"),
		ResourceArn: stack.FormatArn(&awscdk.ArnComponents{Service: jsii.String("cloudfront"), Region: jsii.String(""),
			Resource: jsii.String("distribution"), ResourceName: distributionID}),
	})
	destination := awslogs.NewCfnDeliveryDestination(stack, jsii.String("CloudFrontLogDestination"), &awslogs.CfnDeliveryDestinationProps{
		Name:                   jsii.String("invite-cloudfront-s3"),
		DestinationResourceArn: bucket.BucketArn(),
		OutputFormat:           jsii.String("json"),
	})
	destination.Node().AddDependency(bucket)
	delivery := awslogs.NewCfnDelivery(stack, jsii.String("CloudFrontLogDelivery"), &awslogs.CfnDeliveryProps{
		DeliverySourceName:     source.Name(),
		DeliveryDestinationArn: destination.AttrArn(),
		RecordFields:           jsii.Strings(cloudFrontLogFields...),
	})
	delivery.AddDependency(source)
}
