package main

import (
	"github.com/aws/aws-cdk-go/awscdk/v2/awsiam"
	"github.com/aws/jsii-runtime-go"
)

// IAM actions of the table. TransactWriteItems and TransactGetItems are not
// IAM actions: each item of a transaction is authorised as its item action,
// and condition checks as dynamodb:ConditionCheckItem.
var (
	tableReadActions  = []string{"dynamodb:GetItem", "dynamodb:Query", "dynamodb:BatchGetItem", "dynamodb:ConditionCheckItem"}
	tableWriteActions = []string{"dynamodb:PutItem", "dynamodb:UpdateItem", "dynamodb:DeleteItem", "dynamodb:BatchWriteItem"}
	// An index is read by Query alone.
	indexReadActions = []string{"dynamodb:Query"}
)

// grantTable allows a function its item kinds and index partitions, each
// statement conditioned on dynamodb:LeadingKeys: every item a request
// touches must start with one of them, so a role reads and writes only the
// kinds its function uses. What it writes it may read.
func grantTable(allow func([]string, []*string, map[string]any), access tableAccess, table tableRefs) {
	byLeadingKey := func(partitions []string) map[string]any {
		return map[string]any{"ForAllValues:StringLike": map[string]any{"dynamodb:LeadingKeys": leadingKeyPatterns(partitions)}}
	}
	if reads := kinds(access.Reads, access.Writes); len(reads) > 0 {
		allow(tableReadActions, []*string{table.Arn}, byLeadingKey(reads))
	}
	if len(access.Indexes) > 0 {
		allow(indexReadActions, []*string{table.IndexesArn}, byLeadingKey(access.Indexes))
	}
	if len(access.Writes) > 0 {
		allow(tableWriteActions, []*string{table.Arn}, byLeadingKey(access.Writes))
	}
}

// tableRefs are the ARNs policies need; the indexes are read by Query.
type tableRefs struct {
	Name       *string
	Arn        *string
	IndexesArn *string
}

// grantCapabilities adds to role exactly the statements the spec's
// capabilities need, each on the narrowest resource.
func grantCapabilities(role awsiam.IRole, spec functionSpec, res serviceResources) {
	allow := func(actions []string, resources []*string, conditions map[string]any) {
		props := &awsiam.PolicyStatementProps{
			Effect:    awsiam.Effect_ALLOW,
			Actions:   jsii.Strings(actions...),
			Resources: &resources,
		}
		if conditions != nil {
			props.Conditions = &conditions
		}
		role.AddToPrincipalPolicy(awsiam.NewPolicyStatement(props))
	}

	grantTable(allow, spec.Table, res.Table)
	if len(spec.Table.Indexes) > 0 {
		suppress(role, nagReason{Rule: "AwsSolutions-IAM5", AppliesTo: []string{`/^Resource::<Table[0-9A-F]*\.Arn>\/index\/\*$/`},
			Reason: "Query on the table's four indexes, each request limited by dynamodb:LeadingKeys to the index partitions the function reads."})
	}
	if spec.ReadsSPSecrets || spec.TestsConnections {
		suppress(role, nagReason{Rule: "AwsSolutions-IAM5", AppliesTo: []string{`/^Resource::arn:<AWS::Partition>:secretsmanager:.*:secret:invite\/sp\/\*$/`},
			Reason: "Read only, of the SP secrets operators create by hand under invite/sp/ after the deployment: their names are not known here."})
	}
	if spec.ReadsSPSecrets || spec.ManagesConnections {
		suppress(role, nagReason{Rule: "AwsSolutions-IAM5", AppliesTo: []string{`/^Resource::arn:<AWS::Partition>:secretsmanager:.*:secret:invite\/scim-connections\/\*$/`},
			Reason: "The secrets of SCIM connections, one per connection created at run time under invite/scim-connections/: the prefix is the narrowest resource."})
	}
	if spec.ScansTable {
		allow([]string{"dynamodb:Scan"}, []*string{res.Table.Arn}, nil)
	}
	if spec.SendsToQueue {
		allow([]string{"sqs:SendMessage"}, []*string{res.Queues.Work.QueueArn()}, nil)
	}
	if spec.SendsToDeadLetters {
		allow([]string{"sqs:SendMessage"}, []*string{res.Queues.DeadLetters.QueueArn()}, nil)
	}
	if spec.SendsMail {
		allow([]string{"ses:SendEmail"}, []*string{res.Mail.Identity.EmailIdentityArn(), res.Mail.ConfigurationSetArn}, nil)
	}
	if spec.ReadsMachineCallers {
		allow([]string{"secretsmanager:GetSecretValue"}, []*string{res.Secrets.MachineCallers.SecretArn()}, nil)
	}
	if spec.SignsInPeople {
		allow([]string{"secretsmanager:GetSecretValue"}, []*string{res.Secrets.OIDCClient.SecretArn()}, nil)
	}
	if spec.Kind == apiFunction && res.Secrets.OIDCIntrospection != nil {
		allow([]string{"secretsmanager:GetSecretValue"}, []*string{res.Secrets.OIDCIntrospection.SecretArn()}, nil)
	}
	if spec.Kind == apiFunction && res.Secrets.OriginVerify != nil {
		allow([]string{"secretsmanager:GetSecretValue"}, []*string{res.Secrets.OriginVerify.SecretArn()}, nil)
	}
	if spec.ReadsSPSecrets {
		allow([]string{"secretsmanager:GetSecretValue"}, []*string{res.Secrets.SPArnPattern, res.Secrets.ConnectionArnPattern}, nil)
	}
	if spec.TestsConnections {
		allow([]string{"secretsmanager:GetSecretValue"}, []*string{res.Secrets.SPArnPattern}, nil)
	}
	if spec.ManagesConnections {
		allow([]string{"secretsmanager:CreateSecret", "secretsmanager:PutSecretValue", "secretsmanager:GetSecretValue",
			"secretsmanager:DeleteSecret"}, []*string{res.Secrets.ConnectionArnPattern}, nil)
	}
}
