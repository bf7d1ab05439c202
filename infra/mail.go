package main

import (
	"github.com/aws/aws-cdk-go/awscdk/v2"
	"github.com/aws/aws-cdk-go/awscdk/v2/awsevents"
	"github.com/aws/aws-cdk-go/awscdk/v2/awsses"
	"github.com/aws/constructs-go/constructs/v10"
	"github.com/aws/jsii-runtime-go"
)

// mailSetup is what the functions that send e-mail need: the domain
// identity they send from and the configuration set they send through.
type mailSetup struct {
	Identity         awsses.EmailIdentity
	ConfigurationSet awsses.ConfigurationSet
	// ConfigurationSetArn is built by hand: the L2 construct exposes only
	// the name, and SES v2 authorises SendEmail on the set as well.
	ConfigurationSetArn *string
	From                string
}

// newMail creates the SES v2 domain identity and the configuration set. DNS
// records for DKIM verification are an operator step (see infra/README.md).
func newMail(scope constructs.Construct, cfg StackConfig) mailSetup {
	configSet := awsses.NewConfigurationSet(scope, jsii.String("MailConfigurationSet"), &awsses.ConfigurationSetProps{
		ReputationMetrics: jsii.Bool(true),
		SendingEnabled:    jsii.Bool(true),
		TlsPolicy:         awsses.ConfigurationSetTlsPolicy_REQUIRE,
		// SES stops sending to addresses that bounced for good or
		// complained (the account's suppression list), protecting the
		// sender's reputation; the mail-events function records why.
		SuppressionReasons: awsses.SuppressionReasons_BOUNCES_AND_COMPLAINTS,
	})
	// Bounces and complaints go to the default event bus, where a rule
	// (addMailEventRule) hands them to the mail-events function.
	awsses.NewConfigurationSetEventDestination(scope, jsii.String("MailEventsToEventBridge"), &awsses.ConfigurationSetEventDestinationProps{
		ConfigurationSet: configSet,
		Destination:      awsses.EventDestination_EventBus(awsevents.EventBus_FromEventBusName(scope, jsii.String("DefaultEventBus"), jsii.String("default"))),
		Events:           &[]awsses.EmailSendingEvent{awsses.EmailSendingEvent_BOUNCE, awsses.EmailSendingEvent_COMPLAINT},
	})
	identity := awsses.NewEmailIdentity(scope, jsii.String("MailIdentity"), &awsses.EmailIdentityProps{
		Identity:         awsses.Identity_Domain(jsii.String(cfg.MailDomain)),
		ConfigurationSet: configSet,
	})
	arn := awscdk.Stack_Of(scope).FormatArn(&awscdk.ArnComponents{
		Service:      jsii.String("ses"),
		Resource:     jsii.String("configuration-set"),
		ResourceName: configSet.ConfigurationSetName(),
	})
	return mailSetup{Identity: identity, ConfigurationSet: configSet, ConfigurationSetArn: arn, From: cfg.MailFrom}
}
