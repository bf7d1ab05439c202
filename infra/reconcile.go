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

// wireRoleDeletionContinuation lets the roles function hand the members
// of a deleted role past its DELETE request's budget to a role deletion
// job in the jobs function (service.continueRoleDeletion): a role of
// 50,000 members takes far longer than a request.
func wireRoleDeletionContinuation(roles, jobs serviceFunction) {
	wireInvoke(roles, jobs, "JOBS_FUNCTION_NAME")
}

// wireRoleMoveContinuation lets the web function (the console's role
// form) hand the members of a role moved to another organization past its
// request's budget to a role move job in the jobs function
// (service.continueRoleMove). The roles function (PUT /api/v1/roles) has
// the same wiring for its deletions (wireRoleDeletionContinuation).
func wireRoleMoveContinuation(web, jobs serviceFunction) {
	wireInvoke(web, jobs, "JOBS_FUNCTION_NAME")
}

// wireJobsSelfContinuation lets the jobs function queue an expiry job in
// itself when its own expiry run reaches its time limit with memberships
// left, so that a cohort of any size goes on without the hourly wait. Its
// own name comes from the runtime (AWS_LAMBDA_FUNCTION_NAME, read when
// JOBS_CONTINUE_IN_SELF is set): a reference to itself in its environment
// or its role's default policy would be a dependency cycle, so the grant is
// a policy of its own, which the function does not depend on.
func wireJobsSelfContinuation(jobs serviceFunction) {
	if jobs.Function == nil {
		return
	}
	jobs.Function.AddEnvironment(jsii.String("JOBS_CONTINUE_IN_SELF"), jsii.String("true"), nil)
	awsiam.NewPolicy(jobs.Function, jsii.String("SelfContinuation"), &awsiam.PolicyProps{
		Roles: &[]awsiam.IRole{jobs.Role},
		Statements: &[]awsiam.PolicyStatement{awsiam.NewPolicyStatement(&awsiam.PolicyStatementProps{
			Actions:   jsii.Strings("lambda:InvokeFunction"),
			Resources: &[]*string{jobs.Function.FunctionArn()},
		})},
	})
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
