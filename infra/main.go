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

// build reads the context and adds the stack to app. The stack is
// environment-agnostic unless the CDK CLI supplies an account and region.
func build(app awscdk.App) error {
	cfg, err := LoadStackConfig(func(key string) any { return app.Node().TryGetContext(jsii.String(key)) })
	if err != nil {
		return err
	}
	_, err = NewInviteStack(app, stackName, &InviteStackProps{
		StackProps: awscdk.StackProps{Env: environment()},
		Config:     cfg,
	})
	return err
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
