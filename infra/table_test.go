package main

import (
	"testing"

	"github.com/aws/aws-cdk-go/awscdk/v2/assertions"
	"github.com/aws/jsii-runtime-go"
)

func TestTableKeysIndexesAndBilling(t *testing.T) {
	s := defaultScenario.synth(t)
	gsi := func(n string) map[string]any {
		return map[string]any{
			"IndexName": "gsi" + n,
			"KeySchema": []any{
				map[string]any{"AttributeName": "gsi" + n + "pk", "KeyType": "HASH"},
				map[string]any{"AttributeName": "gsi" + n + "sk", "KeyType": "RANGE"},
			},
			"Projection": map[string]any{"ProjectionType": "ALL"},
		}
	}
	attributes := []any{}
	for _, name := range []string{"pk", "sk", "gsi1pk", "gsi1sk", "gsi2pk", "gsi2sk", "gsi3pk", "gsi3sk", "gsi4pk", "gsi4sk"} {
		attributes = append(attributes, map[string]any{"AttributeName": name, "AttributeType": "S"})
	}
	expect(t, func() { s.template.ResourceCountIs(jsii.String("AWS::DynamoDB::Table"), jsii.Number(1)) })
	expect(t, func() {
		s.template.HasResourceProperties(jsii.String("AWS::DynamoDB::Table"), map[string]any{
			"KeySchema": []any{
				map[string]any{"AttributeName": "pk", "KeyType": "HASH"},
				map[string]any{"AttributeName": "sk", "KeyType": "RANGE"},
			},
			"AttributeDefinitions":             attributes,
			"GlobalSecondaryIndexes":           []any{gsi("1"), gsi("2"), gsi("3"), gsi("4")},
			"BillingMode":                      "PAY_PER_REQUEST",
			"PointInTimeRecoverySpecification": map[string]any{"PointInTimeRecoveryEnabled": true},
			"TimeToLiveSpecification":          map[string]any{"AttributeName": "ttl", "Enabled": true},
			"ProvisionedThroughput":            assertions.Match_Absent(),
		})
	})
}

// TestTableProtection: protected and retained by default; the context
// switch deletionProtection=false lifts both (LocalStack, test accounts).
func TestTableProtection(t *testing.T) {
	cases := []struct {
		s          *scenario
		protection bool
		policy     string
	}{
		{defaultScenario, true, "Retain"},
		{customScenario, false, "Delete"},
	}
	for _, c := range cases {
		s := c.s.synth(t)
		expect(t, func() {
			s.template.HasResource(jsii.String("AWS::DynamoDB::Table"), map[string]any{
				"Properties":          map[string]any{"DeletionProtectionEnabled": c.protection},
				"DeletionPolicy":      c.policy,
				"UpdateReplacePolicy": c.policy,
			})
		})
	}
}
