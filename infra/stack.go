package main

import (
	"fmt"

	"github.com/aws/aws-cdk-go/awscdk/v2"
	"github.com/aws/aws-cdk-go/awscdk/v2/awscloudfront"
	"github.com/aws/aws-cdk-go/awscdk/v2/awslambdaeventsources"
	"github.com/aws/constructs-go/constructs/v10"
	"github.com/aws/jsii-runtime-go"
)

// InviteStackProps configures the stack.
type InviteStackProps struct {
	awscdk.StackProps
	Config StackConfig
	// WebACLArn is the WebACL of the edge stack (cfg.Edge only).
	WebACLArn *string
	// Distribution is set by NewInviteStack to the CloudFront
	// distribution it created (cfg.Edge only), for the us-east-1 alarm.
	Distribution awscloudfront.Distribution
}

// provisionerBatchSize is the most a FIFO event source accepts.
const provisionerBatchSize = 10

// provisionerMaxConcurrency caps the provisioner instances the queue runs
// at once (each delivers up to 10 message groups concurrently). Each SP's
// rate and breaker hold across instances through the table whatever their
// number; the cap bounds how many contend for one SP's state item, and how
// many wait on a busy SP's window, while leaving room for ~1,000
// deliveries/s to many SPs.
const provisionerMaxConcurrency = 10

// NewInviteStack creates the whole service: table, SCIM queues and alarms,
// mail, secrets, the functions, their HTTP routes and schedules.
func NewInviteStack(scope constructs.Construct, id string, props *InviteStackProps) (awscdk.Stack, error) {
	stack := awscdk.NewStack(scope, jsii.String(id), &props.StackProps)
	cfg := props.Config

	table := newTable(stack, cfg)
	queues := newSCIMQueues(stack, cfg, consumerTimeoutSeconds())
	alarmTopic := newQueueAlarms(stack, cfg, queues)
	api := newHTTPAPI(stack, cfg)
	addAPIServerErrorAlarm(stack, api, alarmTopic)

	secrets := newSecrets(stack, cfg)
	publicBaseURL := api.ApiEndpoint()
	var distribution awscloudfront.Distribution
	if cfg.Edge {
		if props.WebACLArn == nil {
			return nil, fmt.Errorf("the CloudFront distribution needs the WebACL of %s", edgeStackName)
		}
		distribution = newDistribution(stack, cfg, api, props.WebACLArn, secrets.OriginVerify)
		props.Distribution = distribution
		publicBaseURL = jsii.String("https://" + *distribution.DistributionDomainName())
		if cfg.DomainName != "" {
			publicBaseURL = jsii.String("https://" + cfg.DomainName)
		}
	}
	if cfg.PublicBaseURL != "" {
		publicBaseURL = jsii.String(cfg.PublicBaseURL)
	}
	res := serviceResources{
		Table: tableRefs{
			Name:       table.TableName(),
			Arn:        table.TableArn(),
			IndexesArn: jsii.String(*table.TableArn() + "/index/*"),
		},
		Queues:        queues,
		Mail:          newMail(stack, cfg),
		Secrets:       secrets,
		PublicBaseURL: publicBaseURL,
	}

	functions := map[string]serviceFunction{}
	for _, spec := range functionSpecs {
		fn, err := newServiceFunction(stack, spec, cfg, res)
		if err != nil {
			return nil, err
		}
		functions[spec.Name] = fn
		addFunctionRoutes(api, fn)
		addSchedule(stack, fn)
		addMailEventRule(stack, fn, res.Mail)
		addErrorAlarm(stack, fn, alarmTopic)
		if spec.Kind == queueConsumer {
			// The event source also grants the consumer (and only it) the
			// receive, delete and visibility actions on the work queue.
			fn.Function.AddEventSource(awslambdaeventsources.NewSqsEventSource(queues.Work, &awslambdaeventsources.SqsEventSourceProps{
				BatchSize:               jsii.Number(provisionerBatchSize),
				MaxConcurrency:          jsii.Number(provisionerMaxConcurrency),
				ReportBatchItemFailures: jsii.Bool(true),
			}))
		}
	}

	suppressRouteAuthorizers(api)
	wireOnDemandReconcile(functions["system"], functions["reconcile"])
	wireOnDemandReconcile(functions["web"], functions["reconcile"])
	wireOnDemandJobs(functions["system"], functions["jobs"])
	wireExpiryContinuation(functions["expiry"], functions["jobs"])
	wireRoleDeletionContinuation(functions["roles"], functions["jobs"])
	wireRoleMoveContinuation(functions["web"], functions["jobs"])
	wireJobsSelfContinuation(functions["jobs"])

	if cfg.OIDCIssuer == "" || cfg.OIDCAudience == "" {
		awscdk.Annotations_Of(stack).AddWarningV2(jsii.String("invite:oidcUnset"), jsii.String(
			"context oidcIssuer or oidcAudience is not set: the API will reject every user token"))
	}

	output(stack, "ApiUrl", api.ApiEndpoint(), "Base URL of the HTTP API; with CloudFront it refuses requests (use ServiceUrl)")
	if distribution != nil {
		output(stack, "ServiceUrl", publicBaseURL, "Public URL of the service: CloudFront with the WAF")
		output(stack, "DistributionDomainName", distribution.DistributionDomainName(), "Point the service's DNS name (CNAME or alias) here")
	}
	output(stack, "TableName", table.TableName(), "DynamoDB table of the service")
	output(stack, "ScimQueueUrl", queues.Work.QueueUrl(), "FIFO queue of SCIM deliveries")
	output(stack, "ScimDeadLetterQueueUrl", queues.DeadLetters.QueueUrl(), "Dead letters of SCIM deliveries")
	output(stack, "AlarmTopicArn", alarmTopic.TopicArn(), "SNS topic of the operational alarms")
	output(stack, "MachineCallersSecretArn", res.Secrets.MachineCallers.SecretArn(), "Put the machine callers' credentials here")
	return stack, nil
}

// consumerTimeoutSeconds is the timeout of the queue consumer, from which
// the work queue's visibility timeout is derived.
func consumerTimeoutSeconds() int {
	for _, spec := range functionSpecs {
		if spec.Kind == queueConsumer {
			return spec.TimeoutSeconds
		}
	}
	return provisionerTimeoutSeconds
}

func output(stack awscdk.Stack, id string, value *string, description string) {
	awscdk.NewCfnOutput(stack, jsii.String(id), &awscdk.CfnOutputProps{
		Value:       value,
		Description: jsii.String(description),
	})
}
