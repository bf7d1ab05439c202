package dynamo

import (
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
)

// keyNames returns the partition and sort key attributes of an index; ""
// is the table itself.
func keyNames(index string) (partition, sort string) {
	switch index {
	case indexGSI1:
		return attrGSI1PK, attrGSI1SK
	case indexGSI2:
		return attrGSI2PK, attrGSI2SK
	case indexGSI3:
		return attrGSI3PK, attrGSI3SK
	case indexGSI4:
		return attrGSI4PK, attrGSI4SK
	default:
		return attrPK, attrSK
	}
}

// sortKeyPrefix narrows a query to sort keys that begin with a prefix.
func sortKeyPrefix(prefix string) func(sort expression.KeyBuilder) expression.KeyConditionBuilder {
	return func(sort expression.KeyBuilder) expression.KeyConditionBuilder {
		return expression.KeyBeginsWith(sort, prefix)
	}
}

// sortKeyBefore narrows a query to sort keys that sort before a bound.
func sortKeyBefore(bound string) func(sort expression.KeyBuilder) expression.KeyConditionBuilder {
	return func(sort expression.KeyBuilder) expression.KeyConditionBuilder {
		return expression.KeyLessThan(sort, expression.Value(bound))
	}
}

// sortKeyIs narrows a query to one sort key.
func sortKeyIs(value string) func(sort expression.KeyBuilder) expression.KeyConditionBuilder {
	return func(sort expression.KeyBuilder) expression.KeyConditionBuilder {
		return expression.KeyEqual(sort, expression.Value(value))
	}
}

// partitionQuery builds a query of one partition of an index ("" for the
// table), optionally narrowed on the sort key, in ascending order.
func (s *Store) partitionQuery(index, partition string, narrow func(expression.KeyBuilder) expression.KeyConditionBuilder) (*dynamodb.QueryInput, error) {
	pkName, skName := keyNames(index)
	cond := expression.Key(pkName).Equal(expression.Value(partition))
	if narrow != nil {
		cond = cond.And(narrow(expression.Key(skName)))
	}
	expr, err := expression.NewBuilder().WithKeyCondition(cond).Build()
	if err != nil {
		return nil, fmt.Errorf("key condition on %s: %w", partition, err)
	}
	in := &dynamodb.QueryInput{
		TableName:                 aws.String(s.table),
		KeyConditionExpression:    expr.KeyCondition(),
		ExpressionAttributeNames:  expr.Names(),
		ExpressionAttributeValues: expr.Values(),
		ScanIndexForward:          aws.Bool(true),
	}
	if index != "" {
		in.IndexName = aws.String(index)
	}
	return in, nil
}
