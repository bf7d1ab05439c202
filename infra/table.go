package main

import (
	"github.com/aws/aws-cdk-go/awscdk/v2"
	"github.com/aws/aws-cdk-go/awscdk/v2/awsdynamodb"
	"github.com/aws/constructs-go/constructs/v10"
	"github.com/aws/jsii-runtime-go"
)

// Attribute and index names of the single-table design; they are the
// contract with shared/dynamo.
const (
	attrPK  = "pk"
	attrSK  = "sk"
	attrTTL = "ttl"
)

var tableIndexes = []string{"gsi1", "gsi2", "gsi3", "gsi4"}

// newTable creates the service's only table. It holds every record, so it
// is protected against deletion and kept when the stack goes, unless the
// deployment opts out (LocalStack, throw-away environments).
func newTable(scope constructs.Construct, cfg StackConfig) awsdynamodb.Table {
	table := awsdynamodb.NewTable(scope, jsii.String("Table"), tableProps(cfg))
	for _, index := range tableIndexes {
		table.AddGlobalSecondaryIndex(&awsdynamodb.GlobalSecondaryIndexProps{
			IndexName:      jsii.String(index),
			PartitionKey:   stringAttribute(index + "pk"),
			SortKey:        stringAttribute(index + "sk"),
			ProjectionType: awsdynamodb.ProjectionType_ALL,
		})
	}
	return table
}

func tableProps(cfg StackConfig) *awsdynamodb.TableProps {
	return &awsdynamodb.TableProps{
		PartitionKey: stringAttribute(attrPK),
		SortKey:      stringAttribute(attrSK),
		BillingMode:  awsdynamodb.BillingMode_PAY_PER_REQUEST,
		PointInTimeRecoverySpecification: &awsdynamodb.PointInTimeRecoverySpecification{
			PointInTimeRecoveryEnabled: jsii.Bool(true),
		},
		TimeToLiveAttribute: jsii.String(attrTTL),
		DeletionProtection:  jsii.Bool(cfg.DeletionProtection),
		RemovalPolicy:       dataRemovalPolicy(cfg),
	}
}

func stringAttribute(name string) *awsdynamodb.Attribute {
	return &awsdynamodb.Attribute{Name: jsii.String(name), Type: awsdynamodb.AttributeType_STRING}
}

// dataRemovalPolicy applies to everything that holds data or operator-entered
// values (table, secrets, logs): kept by default, destroyed when the
// deployment has switched deletion protection off.
func dataRemovalPolicy(cfg StackConfig) awscdk.RemovalPolicy {
	if cfg.DeletionProtection {
		return awscdk.RemovalPolicy_RETAIN
	}
	return awscdk.RemovalPolicy_DESTROY
}
