package main

import (
	"github.com/aws/aws-cdk-go/awscdk/v2/awsiam"
	"github.com/aws/jsii-runtime-go"
)

// wireOnDemandReconcile lets an API function (system: POST
// /api/v1/system/deliveries/reconcile; web: the console's reconcile) run a
// reconcile for one SP by invoking the reconcile function: only that
// function and the provisioner may read the SPs' credentials, so the API
// asks it rather than calling the SP itself.
func wireOnDemandReconcile(caller, reconcile serviceFunction) {
	wireInvoke(caller, reconcile, "RECONCILE_FUNCTION_NAME")
}

// wireOnDemandJobs lets the system function start the cron, repair and
// seed jobs in the jobs function (asynchronous invocations): its own 10 s
// are too short for them.
func wireOnDemandJobs(system, jobs serviceFunction) {
	wireInvoke(system, jobs, "JOBS_FUNCTION_NAME")
}

// wireExpiryContinuation lets the expiry function hand the memberships it
// could not remove before its time limit to an expiry job in the jobs
// function at once (service.continueExpiry), rather than to its next
// hourly run.
func wireExpiryContinuation(expiry, jobs serviceFunction) {
	wireInvoke(expiry, jobs, "JOBS_FUNCTION_NAME")
}

// wireInvoke names target in caller's environment variable and allows
// caller to invoke it, and nothing else.
func wireInvoke(caller, target serviceFunction, variable string) {
	if caller.Function == nil || target.Function == nil {
		return
	}
	caller.Function.AddEnvironment(jsii.String(variable), target.Function.FunctionName(), nil)
	caller.Role.AddToPrincipalPolicy(awsiam.NewPolicyStatement(&awsiam.PolicyStatementProps{
		Actions:   jsii.Strings("lambda:InvokeFunction"),
		Resources: &[]*string{target.Function.FunctionArn()},
	}))
}
