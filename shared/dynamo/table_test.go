package dynamo_test

import (
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"

	"github.com/edu-invite/invite/shared/dynamo"
	"github.com/edu-invite/invite/shared/dynamo/dynamotest"
)

func TestTableDefinitionMatchesTheCDKContract(t *testing.T) {
	def := dynamo.TableDefinition("t")
	if def.BillingMode != "PAY_PER_REQUEST" {
		t.Errorf("billing mode %s", def.BillingMode)
	}
	keys := map[string]string{}
	for _, k := range def.KeySchema {
		keys[aws.ToString(k.AttributeName)] = string(k.KeyType)
	}
	for _, gsi := range def.GlobalSecondaryIndexes {
		if gsi.Projection == nil || gsi.Projection.ProjectionType != "ALL" {
			t.Errorf("%s does not project all attributes", aws.ToString(gsi.IndexName))
		}
		for _, k := range gsi.KeySchema {
			keys[aws.ToString(gsi.IndexName)+"."+aws.ToString(k.AttributeName)] = string(k.KeyType)
		}
	}
	want := map[string]string{
		"pk": "HASH", "sk": "RANGE",
		"gsi1.gsi1pk": "HASH", "gsi1.gsi1sk": "RANGE",
		"gsi2.gsi2pk": "HASH", "gsi2.gsi2sk": "RANGE",
		"gsi3.gsi3pk": "HASH", "gsi3.gsi3sk": "RANGE",
		"gsi4.gsi4pk": "HASH", "gsi4.gsi4sk": "RANGE",
	}
	if len(keys) != len(want) {
		t.Errorf("keys %v", keys)
	}
	for name, kind := range want {
		if keys[name] != kind {
			t.Errorf("%s is %q, want %s", name, keys[name], kind)
		}
	}
}

func TestCreateTableIsIdempotent(t *testing.T) {
	client, table := dynamotest.NewClient(t) // creates it once
	if err := dynamo.CreateTable(ctx(t), client, table); err != nil {
		t.Fatalf("second create: %v", err)
	}
}
