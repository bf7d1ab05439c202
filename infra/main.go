// Command infra is the AWS CDK app of the invite service: `cdk synth`
// (or `make synth`) runs it and writes the cloud assembly to cdk.out.
package main

import (
	"fmt"
	"os"

	"github.com/aws/aws-cdk-go/awscdk/v2"
	"github.com/aws/jsii-runtime-go"
)

// stackName is the CloudFormation stack of the service.
const stackName = "InviteStack"

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "invite infra:", err)
		os.Exit(1)
	}
}

func run() error {
	defer jsii.Close()
	app := awscdk.NewApp(nil)
	if err := build(app); err != nil {
		return err
	}
	asm := app.Synth(nil)
	if _, err := printAnnotations(os.Stderr, *asm.Directory()); err != nil {
		return fmt.Errorf("read the synthesis' warnings: %w", err)
	}
	return nil
}

// build reads the context and adds the stacks to app.
func build(app awscdk.App) error {
	cfg, err := LoadStackConfig(func(key string) any { return app.Node().TryGetContext(jsii.String(key)) })
	if err != nil {
		return err
	}
	_, err = buildStacks(app, cfg, environment())
	return err
}

// buildStacks adds the service's stack and, with cfg.Edge, the us-east-1
// stack of its WAF WebACL, whose ARN crosses regions by a reference that
// CDK carries (SSM parameters and a custom resource), and the us-east-1
// stack of the CloudFront alarm, which gets the distribution's id the same
// way. A cross-region reference needs both stacks' account and region: the
// CDK CLI supplies them from the caller's credentials.
func buildStacks(app awscdk.App, cfg StackConfig, env *awscdk.Environment) (awscdk.Stack, error) {
	addNagChecks(app)
	props := &InviteStackProps{StackProps: awscdk.StackProps{Env: env}, Config: cfg}
	if cfg.Edge {
		if env == nil {
			return nil, fmt.Errorf("context %s=true (the default) puts CloudFront and a WAF WebACL in %s in front of the API, "+
				"which needs the account and region: run through the CDK CLI, or set CDK_DEFAULT_ACCOUNT and CDK_DEFAULT_REGION; "+
				"-c %s=false leaves them out (LocalStack)", ctxEdge, edgeRegion, ctxEdge)
		}
		_, acl := NewEdgeStack(app, edgeStackName, cfg, &awscdk.StackProps{
			Env:                   &awscdk.Environment{Account: env.Account, Region: jsii.String(edgeRegion)},
			CrossRegionReferences: jsii.Bool(true),
			Description:           jsii.String("WAF WebACL of the invite service's CloudFront distribution (us-east-1)"),
		})
		props.StackProps.CrossRegionReferences = jsii.Bool(true)
		props.WebACLArn = acl.AttrArn()
	}
	stack, err := NewInviteStack(app, stackName, props)
	if err != nil || !cfg.Edge {
		return stack, err
	}
	NewEdgeMonitoringStack(app, edgeMonitoringStackName, cfg, props.Distribution.DistributionId(), &awscdk.StackProps{
		Env:                   &awscdk.Environment{Account: env.Account, Region: jsii.String(edgeRegion)},
		CrossRegionReferences: jsii.Bool(true),
		Description:           jsii.String("Alarm on the invite service's CloudFront distribution, whose metrics are in us-east-1"),
	})
	return stack, nil
}

// environment uses the account and region the CDK CLI resolved from the
// caller's credentials, so that `cdk deploy` targets them explicitly.
func environment() *awscdk.Environment {
	account, region := os.Getenv("CDK_DEFAULT_ACCOUNT"), os.Getenv("CDK_DEFAULT_REGION")
	if account == "" || region == "" {
		return nil
	}
	return &awscdk.Environment{Account: jsii.String(account), Region: jsii.String(region)}
}
