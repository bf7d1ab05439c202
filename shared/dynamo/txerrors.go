package dynamo

import (
	"context"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/edu-invite/invite/shared/domain"
)

// Cancellation reason codes of TransactionCanceledException.
const (
	reasonConditionFailed     = "ConditionalCheckFailed"
	reasonTransactionConflict = "TransactionConflict"
	reasonNone                = "None"
)

// explain turns a canceled transaction into the error of the first write
// whose condition failed. A conflict with another transaction on the same
// item is the same, to a caller, as a concurrent change.
func (t *txn) explain(ctx context.Context, canceled *types.TransactionCanceledException) error {
	for i, reason := range canceled.CancellationReasons {
		switch aws.ToString(reason.Code) {
		case reasonConditionFailed:
			if i < len(t.onFail) && t.onFail[i] != nil {
				return t.onFail[i](ctx)
			}
			return domain.ErrVersionConflict
		case reasonTransactionConflict:
			return domain.ErrVersionConflict
		}
	}
	for _, reason := range canceled.CancellationReasons {
		if code := aws.ToString(reason.Code); code != "" && code != reasonNone {
			return fmt.Errorf("transaction canceled: %s: %s", code, aws.ToString(reason.Message))
		}
	}
	return fmt.Errorf("transaction canceled: %s", aws.ToString(canceled.Message))
}

// versionIs is the optimistic-lock condition.
func versionIs(version int64) expression.ConditionBuilder {
	return expression.Name("version").Equal(expression.Value(version))
}

// always is a failure that needs no read.
func always(err error) failure {
	return func(context.Context) error { return err }
}

// versionFailure explains a failed version check on key: the item is gone
// (notFound) or somebody else changed it first.
func (s *Store) versionFailure(key itemKey, notFound error) failure {
	return func(ctx context.Context) error {
		var stored struct{}
		found, err := s.getItem(ctx, key, &stored)
		if err != nil {
			return err
		}
		if !found {
			return notFound
		}
		return domain.ErrVersionConflict
	}
}
