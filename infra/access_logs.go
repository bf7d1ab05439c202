package main

import (
	"github.com/aws/aws-cdk-go/awscdk/v2"
	"github.com/aws/aws-cdk-go/awscdk/v2/awsapigatewayv2"
	"github.com/aws/aws-cdk-go/awscdk/v2/awslogs"
	"github.com/aws/aws-cdk-go/awscdk/v2/awss3"
	"github.com/aws/constructs-go/constructs/v10"
	"github.com/aws/jsii-runtime-go"
)

// apiAccessLogFormat is one JSON line per request of the HTTP API. The path
// is without its query string, where the acceptance link's hash and the
// sign-in's code and state travel; no header, cookie or body is logged.
const apiAccessLogFormat = `{"requestId":"$context.requestId","ip":"$context.identity.sourceIp",` +
	`"requestTime":"$context.requestTime","method":"$context.httpMethod","routeKey":"$context.routeKey",` +
	`"path":"$context.path","status":"$context.status","protocol":"$context.protocol",` +
	`"responseLength":"$context.responseLength","latency":"$context.responseLatency",` +
	`"integrationStatus":"$context.integrationStatus","integrationLatency":"$context.integrationLatency",` +
	`"integrationError":"$context.integrationErrorMessage"}`

// addAPIAccessLog writes the stage's access log to a log group of its own,
// kept as long as the functions' logs. HTTP APIs write with their service
// role: no account-wide CloudWatch role is needed.
func addAPIAccessLog(scope constructs.Construct, stage awsapigatewayv2.HttpStage, cfg StackConfig) awslogs.LogGroup {
	group := awslogs.NewLogGroup(scope, jsii.String("HttpApiAccessLogs"), &awslogs.LogGroupProps{
		Retention:     logRetentions[cfg.LogRetentionDays],
		RemovalPolicy: dataRemovalPolicy(cfg),
	})
	cfn := stage.Node().DefaultChild().(awsapigatewayv2.CfnStage)
	cfn.SetAccessLogSettings(&awsapigatewayv2.CfnStage_AccessLogSettingsProperty{
		DestinationArn: group.LogGroupArn(),
		Format:         jsii.String(apiAccessLogFormat),
	})
	return group
}

// newAccessLogBucket is the bucket of CloudFront's access logs: private,
// encrypted, reachable over TLS only, its logs expiring with the other
// logs' retention, every object the bucket owner's (no ACLs).
func newAccessLogBucket(scope constructs.Construct, cfg StackConfig) awss3.Bucket {
	bucket := awss3.NewBucket(scope, jsii.String("AccessLogBucket"), &awss3.BucketProps{
		Encryption:        awss3.BucketEncryption_S3_MANAGED,
		EnforceSSL:        jsii.Bool(true),
		MinimumTLSVersion: jsii.Number(1.2),
		BlockPublicAccess: awss3.BlockPublicAccess_BLOCK_ALL(),
		ObjectOwnership:   awss3.ObjectOwnership_BUCKET_OWNER_ENFORCED,
		Versioned:         jsii.Bool(false),
		LifecycleRules: &[]*awss3.LifecycleRule{{
			Id:                                  jsii.String("expire-access-logs"),
			Enabled:                             jsii.Bool(true),
			Expiration:                          awscdk.Duration_Days(jsii.Number(float64(cfg.LogRetentionDays))),
			AbortIncompleteMultipartUploadAfter: awscdk.Duration_Days(jsii.Number(1)),
		}},
		RemovalPolicy: dataRemovalPolicy(cfg),
	})
	suppress(bucket, nagReason{Rule: "AwsSolutions-S1",
		Reason: "This bucket holds the access logs; its own access would be logged into another log bucket, and so on. Only the log delivery writes to it."})
	return bucket
}
