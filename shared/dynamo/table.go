package dynamo

import (
	"context"
	"errors"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// TableDefinition is the table the store needs, billed on demand. The CDK
// stack declares the same keys and indexes; the TTL attribute "ttl" is
// switched on there (CreateTable cannot do it).
func TableDefinition(name string) *dynamodb.CreateTableInput {
	return &dynamodb.CreateTableInput{
		TableName:   aws.String(name),
		BillingMode: types.BillingModePayPerRequest,
		AttributeDefinitions: []types.AttributeDefinition{
			stringAttribute(attrPK), stringAttribute(attrSK),
			stringAttribute(attrGSI1PK), stringAttribute(attrGSI1SK),
			stringAttribute(attrGSI2PK), stringAttribute(attrGSI2SK),
			stringAttribute(attrGSI3PK), stringAttribute(attrGSI3SK),
			stringAttribute(attrGSI4PK), stringAttribute(attrGSI4SK),
		},
		KeySchema: keySchema(attrPK, attrSK),
		GlobalSecondaryIndexes: []types.GlobalSecondaryIndex{
			allProjected(indexGSI1, attrGSI1PK, attrGSI1SK),
			allProjected(indexGSI2, attrGSI2PK, attrGSI2SK),
			allProjected(indexGSI3, attrGSI3PK, attrGSI3SK),
			allProjected(indexGSI4, attrGSI4PK, attrGSI4SK),
		},
	}
}

// CreateTable creates the table unless it exists. It does not wait for the
// table to become active: DynamoDB Local creates it ACTIVE, and callers in
// AWS get the table from CDK.
func CreateTable(ctx context.Context, client *dynamodb.Client, name string) error {
	_, err := client.CreateTable(ctx, TableDefinition(name))
	var inUse *types.ResourceInUseException
	if err != nil && !errors.As(err, &inUse) {
		return fmt.Errorf("create table %s: %w", name, err)
	}
	return nil
}

func stringAttribute(name string) types.AttributeDefinition {
	return types.AttributeDefinition{AttributeName: aws.String(name), AttributeType: types.ScalarAttributeTypeS}
}

func keySchema(hash, rangeKey string) []types.KeySchemaElement {
	return []types.KeySchemaElement{
		{AttributeName: aws.String(hash), KeyType: types.KeyTypeHash},
		{AttributeName: aws.String(rangeKey), KeyType: types.KeyTypeRange},
	}
}

func allProjected(index, hash, rangeKey string) types.GlobalSecondaryIndex {
	return types.GlobalSecondaryIndex{
		IndexName:  aws.String(index),
		KeySchema:  keySchema(hash, rangeKey),
		Projection: &types.Projection{ProjectionType: types.ProjectionTypeAll},
	}
}
