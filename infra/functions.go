package main

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/aws/aws-cdk-go/awscdk/v2"
	"github.com/aws/aws-cdk-go/awscdk/v2/awsiam"
	"github.com/aws/aws-cdk-go/awscdk/v2/awslambda"
	"github.com/aws/aws-cdk-go/awscdk/v2/awslogs"
	"github.com/aws/constructs-go/constructs/v10"
	"github.com/aws/jsii-runtime-go"
)

// functionTagKey tags every resource of a function (function, role, log
// group) with the function's name: for cost allocation, and so tests and
// operators can find a function's resources by name.
const functionTagKey = "invite:function"

// serviceResources are the shared resources the functions are wired to.
type serviceResources struct {
	Table         tableRefs
	Queues        scimQueues
	Mail          mailSetup
	Secrets       serviceSecrets
	PublicBaseURL *string
}

// serviceFunction is one deployed function with its own role and log group.
type serviceFunction struct {
	Spec     functionSpec
	Function awslambda.Function
	Role     awsiam.Role
	LogGroup awslogs.LogGroup
}

// newServiceFunction creates a function from its spec. Each function has
// its own role without managed policies, so that everything it may do is
// the statements added from its spec (see policies.go).
func newServiceFunction(scope constructs.Construct, spec functionSpec, cfg StackConfig, res serviceResources) (serviceFunction, error) {
	code, err := resolveFunctionCode(cfg.CodeDir, spec.Name, cfg.RequireFunctionCode)
	if err != nil {
		return serviceFunction{}, err
	}
	group := constructs.NewConstruct(scope, jsii.String(pascalCase(spec.Name)+"Function"))
	awscdk.Tags_Of(group).Add(jsii.String(functionTagKey), jsii.String(spec.Name), nil)

	logGroup := awslogs.NewLogGroup(group, jsii.String("Logs"), &awslogs.LogGroupProps{
		Retention:     logRetentions[cfg.LogRetentionDays],
		RemovalPolicy: dataRemovalPolicy(cfg),
	})
	role := awsiam.NewRole(group, jsii.String("Role"), &awsiam.RoleProps{
		AssumedBy:   awsiam.NewServicePrincipal(jsii.String("lambda.amazonaws.com"), nil),
		Description: jsii.String("Role of the invite " + spec.Name + " function"),
	})
	logGroup.GrantWrite(role)

	fn := awslambda.NewFunction(group, jsii.String("Handler"), &awslambda.FunctionProps{
		Description:  jsii.String("invite " + spec.Name),
		Runtime:      awslambda.Runtime_PROVIDED_AL2023(),
		Architecture: awslambda.Architecture_ARM_64(),
		Handler:      jsii.String("bootstrap"),
		Code:         awslambda.Code_FromAsset(jsii.String(code.Path), nil),
		MemorySize:   jsii.Number(float64(spec.MemoryMB)),
		Timeout:      awscdk.Duration_Seconds(jsii.Number(float64(spec.TimeoutSeconds))),
		Environment:  functionEnvironment(spec, cfg, res),
		LogGroup:     logGroup,
		Role:         role,
	})
	if code.Placeholder {
		awscdk.Annotations_Of(fn).AddWarningV2(jsii.String("invite:placeholderCode"), jsii.String(fmt.Sprintf(
			"%s/%s.zip is missing: the %s function gets placeholder code that fails every call; run 'make build' before deploying",
			cfg.CodeDir, spec.Name, spec.Name)))
	}
	grantCapabilities(role, spec, res)
	return serviceFunction{Spec: spec, Function: fn, Role: role, LogGroup: logGroup}, nil
}

// functionEnvironment gives a function exactly the variables its
// capabilities need; the service reads these names.
func functionEnvironment(spec functionSpec, cfg StackConfig, res serviceResources) *map[string]*string {
	env := map[string]*string{
		"TABLE_NAME": res.Table.Name,
		"LOG_LEVEL":  jsii.String(cfg.LogLevel),
	}
	if spec.SendsToQueue || spec.Kind == queueConsumer {
		// The consumer names the queue in its backoff
		// (ChangeMessageVisibility, granted by its event source).
		env["SCIM_QUEUE_URL"] = res.Queues.Work.QueueUrl()
	}
	if spec.SendsToDeadLetters {
		env["SCIM_DLQ_URL"] = res.Queues.DeadLetters.QueueUrl()
		// The consumer dead-letters a delivery itself on its last receive,
		// with the reason, rather than leaving it to the silent redrive.
		env["SCIM_MAX_RECEIVE_COUNT"] = jsii.String(strconv.Itoa(cfg.MaxReceiveCount))
	}
	if spec.SendsMail {
		env["MAIL_FROM"] = jsii.String(res.Mail.From)
		env["SES_CONFIGURATION_SET"] = res.Mail.ConfigurationSet.ConfigurationSetName()
	}
	if spec.ReadsMachineCallers {
		env["MACHINE_CALLERS_SECRET_ARN"] = res.Secrets.MachineCallers.SecretArn()
	}
	if spec.ManagesConnections {
		env["CONNECTION_SECRET_PREFIX"] = jsii.String(connectionSecretPrefix)
	}
	if spec.ManagesConnections || spec.TestsConnections || spec.ReadsSPSecrets {
		// Every function that checks or calls an SP address applies the
		// operator's address policy (shared/outbound).
		if cfg.SCIMAllowedAddresses != "" {
			env["SCIM_ALLOWED_ADDRESSES"] = jsii.String(cfg.SCIMAllowedAddresses)
		}
		if cfg.SCIMAllowHTTP {
			env["SCIM_ALLOW_HTTP"] = jsii.String("true")
		}
	}
	if spec.NeedsPublicURL {
		env["PUBLIC_BASE_URL"] = res.PublicBaseURL
	}
	if spec.ServesSessionConfig {
		for k, v := range cfg.Session {
			env[k] = jsii.String(v)
		}
	}
	if spec.Seeds {
		env[envPerformanceSeedAllowed] = jsii.String(cfg.Session[envPerformanceSeedAllowed])
	}
	if spec.EndsExpired && cfg.ExpiryLimit > 0 {
		env["EXPIRY_LIMIT"] = jsii.String(strconv.Itoa(cfg.ExpiryLimit))
	}
	if spec.ManagesRoles && cfg.RoleDeletionBudget > 0 {
		env["ROLE_DELETION_BUDGET"] = jsii.String(strconv.Itoa(cfg.RoleDeletionBudget))
	}
	if spec.ManagesRoles && cfg.RoleMoveBudget > 0 {
		env["ROLE_MOVE_BUDGET"] = jsii.String(strconv.Itoa(cfg.RoleMoveBudget))
	}
	if spec.SignsInPeople {
		env["OIDC_CLIENT_ID"] = jsii.String(cfg.OIDCClientID)
		env["OIDC_CLIENT_SECRET_ARN"] = res.Secrets.OIDCClient.SecretArn()
		env["SESSION_IDLE_TIMEOUT"] = jsii.String(cfg.SessionIdleTimeout)
		if cfg.Disclaimer != "" {
			env["DISCLAIMER"] = jsii.String(cfg.Disclaimer)
		}
	}
	if spec.Kind == apiFunction && res.Secrets.OriginVerify != nil {
		env["ORIGIN_VERIFY_SECRET_ARN"] = res.Secrets.OriginVerify.SecretArn()
	}
	if spec.SignsInPeople && cfg.SessionMaxLifetime != "" {
		env["SESSION_MAX_LIFETIME"] = jsii.String(cfg.SessionMaxLifetime)
	}
	if spec.Kind == apiFunction {
		// How the identity provider is used, only where set: the pages
		// sign in with it and every API function verifies its tokens.
		for k, v := range cfg.IdentityProvider {
			env[k] = jsii.String(v)
		}
		if res.Secrets.OIDCIntrospection != nil {
			env["OIDC_INTROSPECTION_CLIENT_ID"] = jsii.String(cfg.OIDCIntrospectionClientID)
			env["OIDC_INTROSPECTION_SECRET"] = jsii.String("secretsmanager:" + oidcIntrospectionSecretName)
		}
		if cfg.InvitationsPerInviterPerDay != "" {
			env["INVITATIONS_PER_INVITER_PER_DAY"] = jsii.String(cfg.InvitationsPerInviterPerDay)
		}
		env["OIDC_ISSUER"] = jsii.String(cfg.OIDCIssuer)
		env["OIDC_AUDIENCE"] = jsii.String(cfg.OIDCAudience)
		env["SUPER_USERS"] = jsii.String(cfg.SuperUsers)
	}
	return &env
}

// pascalCase turns a function directory name into a construct id part:
// "outbox-sweep" becomes "OutboxSweep".
func pascalCase(name string) string {
	var b strings.Builder
	for _, part := range strings.FieldsFunc(name, func(r rune) bool { return r == '-' || r == '_' }) {
		b.WriteString(strings.ToUpper(part[:1]) + part[1:])
	}
	return b.String()
}
