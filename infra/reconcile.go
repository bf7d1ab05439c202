package main

import (
	"github.com/aws/aws-cdk-go/awscdk/v2/awsiam"
	"github.com/aws/jsii-runtime-go"
)

// wireOnDemandReconcile lets the system API function run a reconcile for
// one SP (POST /api/v1/system/deliveries/reconcile) by invoking the
// reconcile function: only that function and the provisioner may read the
// SPs' credentials, so the API asks it rather than calling the SP itself.
func wireOnDemandReconcile(system, reconcile serviceFunction) {
	if system.Function == nil || reconcile.Function == nil {
		return
	}
	system.Function.AddEnvironment(jsii.String("RECONCILE_FUNCTION_NAME"), reconcile.Function.FunctionName(), nil)
	system.Role.AddToPrincipalPolicy(awsiam.NewPolicyStatement(&awsiam.PolicyStatementProps{
		Actions:   jsii.Strings("lambda:InvokeFunction"),
		Resources: &[]*string{reconcile.Function.FunctionArn()},
	}))
}
