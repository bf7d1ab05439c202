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
)

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

	allow(tableReadActions, []*string{res.Table.Arn, res.Table.IndexesArn}, nil)
	switch spec.Table {
	case tableReadWrite:
		allow(tableWriteActions, []*string{res.Table.Arn}, nil)
	case tableReadWriteByLeadingKey:
		patterns := make([]any, len(spec.WritablePartitions))
		for i, prefix := range spec.WritablePartitions {
			patterns[i] = prefix + "*"
		}
		allow(tableWriteActions, []*string{res.Table.Arn}, map[string]any{
			"ForAllValues:StringLike": map[string]any{"dynamodb:LeadingKeys": patterns},
		})
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
