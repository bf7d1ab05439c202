package main

import (
	"github.com/aws/aws-cdk-go/awscdk/v2"
	"github.com/aws/aws-cdk-go/awscdk/v2/awsevents"
	"github.com/aws/aws-cdk-go/awscdk/v2/awseventstargets"
	"github.com/aws/constructs-go/constructs/v10"
	"github.com/aws/jsii-runtime-go"
)

// addSchedule runs a scheduled job from an EventBridge rule. Every job is
// idempotent and runs again at its next tick, so a failed run is retried
// only briefly and an event older than an hour is dropped.
func addSchedule(scope constructs.Construct, fn serviceFunction) {
	if fn.Spec.Schedule == "" {
		return
	}
	awsevents.NewRule(scope, jsii.String(pascalCase(fn.Spec.Name)+"Schedule"), &awsevents.RuleProps{
		Description: jsii.String("Runs the invite " + fn.Spec.Name + " job"),
		Schedule:    awsevents.Schedule_Expression(jsii.String(fn.Spec.Schedule)),
		Targets: &[]awsevents.IRuleTarget{
			awseventstargets.NewLambdaFunction(fn.Function, &awseventstargets.LambdaFunctionProps{
				RetryAttempts: jsii.Number(2),
				MaxEventAge:   awscdk.Duration_Hours(jsii.Number(1)),
			}),
		},
	})
}

// addMailEventRule sends the SES bounce and complaint events of the
// service's configuration set to the mail-events function. The function
// ignores repeats, so EventBridge may retry it for a day.
func addMailEventRule(scope constructs.Construct, fn serviceFunction, mail mailSetup) {
	if fn.Spec.Kind != mailEventConsumer {
		return
	}
	awsevents.NewRule(scope, jsii.String(pascalCase(fn.Spec.Name)+"Rule"), &awsevents.RuleProps{
		Description: jsii.String("SES bounces and complaints of the invite configuration set"),
		EventPattern: &awsevents.EventPattern{
			Source:     jsii.Strings("aws.ses"),
			DetailType: jsii.Strings("Email Bounced", "Email Complaint Received"),
			// SES tags every mail with its configuration set: only the
			// service's own mails, not others of the account.
			Detail: &map[string]any{"mail": map[string]any{"tags": map[string]any{
				"ses:configuration-set": []any{mail.ConfigurationSet.ConfigurationSetName()},
			}}},
		},
		Targets: &[]awsevents.IRuleTarget{
			awseventstargets.NewLambdaFunction(fn.Function, &awseventstargets.LambdaFunctionProps{
				RetryAttempts: jsii.Number(10),
				MaxEventAge:   awscdk.Duration_Hours(jsii.Number(24)),
			}),
		},
	})
}
