package main

import (
	"github.com/aws/aws-cdk-go/awscdk/v2"
	"github.com/aws/aws-cdk-go/awscdk/v2/awslogs"
	"github.com/aws/aws-cdk-go/awscdk/v2/awswafv2"
	"github.com/aws/constructs-go/constructs/v10"
	"github.com/aws/jsii-runtime-go"
)

// The WebACL in front of the service. An HTTP API (API Gateway v2) cannot
// have a WebACL of its own, so the WebACL guards the CloudFront distribution
// in front of it (edge.go). A WebACL of scope CLOUDFRONT must be created in
// us-east-1: it lives in a stack of its own there, InviteEdgeStack, and its
// ARN reaches the service's stack as a cross-region reference.

const (
	// edgeRegion is where CloudFront's WebACLs (and certificates) live.
	edgeRegion    = "us-east-1"
	edgeStackName = "InviteEdgeStack"
	webACLName    = "invite"
	// wafLogGroupName must start with aws-waf-logs- for WAF to write to it.
	wafLogGroupName = "aws-waf-logs-invite"

	ruleRatePerIP       = "RateLimitPerSourceIP"
	ruleCommonRuleSet   = "AWSManagedRulesCommonRuleSet"
	ruleKnownBadInputs  = "AWSManagedRulesKnownBadInputsRuleSet"
	rateWindowSeconds   = 300
	wafModeBlock        = "block"
	wafModeCount        = "count"
	defaultWAFRateLimit = 1000
)

// commonRulesCounted are rules of the common rule set that only count, even
// in block mode: SizeRestrictions_BODY refuses bodies over 8 KB, but the
// applications import and invitations to many recipients are larger, and the
// service bounds every field and item itself.
var commonRulesCounted = []string{"SizeRestrictions_BODY"}

// wafRedactedFields never reach the WAF logs: the API token and bearer
// tokens, the session cookie, and query strings (the invitation hash of the
// acceptance link, the OIDC code and state of the sign-in callback).
var wafRedactedFields = []string{"authorization", "cookie", "x-api-token"}

// NewEdgeStack creates the us-east-1 stack of the WebACL and its logging.
func NewEdgeStack(scope constructs.Construct, id string, cfg StackConfig, props *awscdk.StackProps) (awscdk.Stack, awswafv2.CfnWebACL) {
	stack := awscdk.NewStack(scope, jsii.String(id), props)
	acl := awswafv2.NewCfnWebACL(stack, jsii.String("WebAcl"), &awswafv2.CfnWebACLProps{
		Name:             jsii.String(webACLName),
		Description:      jsii.String("Guards the invite service's CloudFront distribution: per-IP rate limit and AWS managed rules"),
		Scope:            jsii.String("CLOUDFRONT"),
		DefaultAction:    &awswafv2.CfnWebACL_DefaultActionProperty{Allow: &awswafv2.CfnWebACL_AllowActionProperty{}},
		VisibilityConfig: visibility("invite-webacl"),
		Rules: &[]any{
			&awswafv2.CfnWebACL_RuleProperty{
				Name:     jsii.String(ruleRatePerIP),
				Priority: jsii.Number(0),
				// 429, as the service answers its own throttling (WAF
				// prefixes custom headers, so no plain Retry-After).
				Action: &awswafv2.CfnWebACL_RuleActionProperty{Block: &awswafv2.CfnWebACL_BlockActionProperty{
					CustomResponse: &awswafv2.CfnWebACL_CustomResponseProperty{ResponseCode: jsii.Number(429)},
				}},
				Statement: &awswafv2.CfnWebACL_StatementProperty{RateBasedStatement: &awswafv2.CfnWebACL_RateBasedStatementProperty{
					Limit:               jsii.Number(float64(cfg.WAFRateLimit)),
					AggregateKeyType:    jsii.String("IP"),
					EvaluationWindowSec: jsii.Number(rateWindowSeconds),
				}},
				VisibilityConfig: visibility("invite-rate-per-ip"),
			},
			managedRuleGroup(ruleCommonRuleSet, 1, cfg.WAFManagedRules, commonRulesCounted),
			managedRuleGroup(ruleKnownBadInputs, 2, cfg.WAFManagedRules, nil),
		},
	})

	logGroup := awslogs.NewLogGroup(stack, jsii.String("WafLogs"), &awslogs.LogGroupProps{
		LogGroupName:  jsii.String(wafLogGroupName),
		Retention:     logRetentions[cfg.LogRetentionDays],
		RemovalPolicy: dataRemovalPolicy(cfg),
	})
	redacted := []any{&awswafv2.CfnLoggingConfiguration_FieldToMatchProperty{QueryString: map[string]any{}}}
	for _, h := range wafRedactedFields {
		// SingleHeader is untyped JSON in CloudFormation: a typed struct
		// would be rendered with a lower-case "name".
		redacted = append(redacted, &awswafv2.CfnLoggingConfiguration_FieldToMatchProperty{
			SingleHeader: map[string]any{"Name": h}})
	}
	logging := awswafv2.NewCfnLoggingConfiguration(stack, jsii.String("WafLogging"), &awswafv2.CfnLoggingConfigurationProps{
		ResourceArn: acl.AttrArn(),
		// WAF wants the log group's ARN without the ":*" of LogGroupArn.
		LogDestinationConfigs: &[]any{stack.FormatArn(&awscdk.ArnComponents{
			Service: jsii.String("logs"), Resource: jsii.String("log-group"),
			ResourceName: logGroup.LogGroupName(), ArnFormat: awscdk.ArnFormat_COLON_RESOURCE_NAME,
		})},
		RedactedFields: &redacted,
	})
	logging.Node().AddDependency(logGroup)
	output(stack, "WebAclArn", acl.AttrArn(), "WAF WebACL of the CloudFront distribution")
	return stack, acl
}

// managedRuleGroup is an AWS managed rule group that blocks (mode block) or
// only counts (mode count); counted lists rules that always only count.
func managedRuleGroup(name string, priority float64, mode string, counted []string) *awswafv2.CfnWebACL_RuleProperty {
	override := &awswafv2.CfnWebACL_OverrideActionProperty{None: map[string]any{}}
	if mode == wafModeCount {
		override = &awswafv2.CfnWebACL_OverrideActionProperty{Count: map[string]any{}}
	}
	group := &awswafv2.CfnWebACL_ManagedRuleGroupStatementProperty{VendorName: jsii.String("AWS"), Name: jsii.String(name)}
	if len(counted) > 0 {
		overrides := make([]any, len(counted))
		for i, rule := range counted {
			overrides[i] = &awswafv2.CfnWebACL_RuleActionOverrideProperty{
				Name:        jsii.String(rule),
				ActionToUse: &awswafv2.CfnWebACL_RuleActionProperty{Count: &awswafv2.CfnWebACL_CountActionProperty{}},
			}
		}
		group.RuleActionOverrides = &overrides
	}
	return &awswafv2.CfnWebACL_RuleProperty{
		Name:             jsii.String(name),
		Priority:         jsii.Number(priority),
		OverrideAction:   override,
		Statement:        &awswafv2.CfnWebACL_StatementProperty{ManagedRuleGroupStatement: group},
		VisibilityConfig: visibility("invite-" + name),
	}
}

func visibility(metric string) *awswafv2.CfnWebACL_VisibilityConfigProperty {
	return &awswafv2.CfnWebACL_VisibilityConfigProperty{
		CloudWatchMetricsEnabled: jsii.Bool(true),
		MetricName:               jsii.String(metric),
		SampledRequestsEnabled:   jsii.Bool(true),
	}
}
