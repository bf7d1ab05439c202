package dynamo

import (
	"context"
	"fmt"
	"strconv"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/edu-invite/invite/shared/domain"
)

// NextIDs reserves n consecutive ids with one atomic ADD on the sequence
// item, which DynamoDB creates at 0 on first use; ids start at 1.
func (s *Store) NextIDs(ctx context.Context, sequence string, n int) (int64, error) {
	if n < 1 {
		return 0, domain.Invalidf("cannot reserve %d ids", n)
	}
	update := expression.Add(expression.Name("value"), expression.Value(n)).
		Set(expression.Name("entity"), expression.Value(entitySequence))
	expr, err := expression.NewBuilder().WithUpdate(update).Build()
	if err != nil {
		return 0, fmt.Errorf("sequence update: %w", err)
	}
	out, err := s.db.UpdateItem(ctx, &dynamodb.UpdateItemInput{
		TableName:                 aws.String(s.table),
		Key:                       sequenceKey(sequence).attributes(),
		UpdateExpression:          expr.Update(),
		ExpressionAttributeNames:  expr.Names(),
		ExpressionAttributeValues: expr.Values(),
		ReturnValues:              types.ReturnValueUpdatedNew,
	})
	if err != nil {
		return 0, fmt.Errorf("reserve %d ids of %s: %w", n, sequence, err)
	}
	value, ok := out.Attributes["value"].(*types.AttributeValueMemberN)
	if !ok {
		return 0, fmt.Errorf("reserve ids of %s: no new value returned", sequence)
	}
	last, err := strconv.ParseInt(value.Value, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("reserve ids of %s: %w", sequence, err)
	}
	return last - int64(n) + 1, nil
}

// auditSequence numbers audit entries; the provisioner may write its item
// (SEQ#audit) besides its own partitions.
const auditSequence = "audit"

func sequenceKey(name string) itemKey { return itemKey{PK: "SEQ#" + name, SK: skSequence} }
