package dynamo

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// maxTransactionItems is DynamoDB's limit on writes in one TransactWriteItems.
const maxTransactionItems = 100

// txn collects the writes of one TransactWriteItems call and, for each
// write, how a failed condition on it reads as a domain error. When several
// conditions fail the first write's explanation wins, so callers add the
// write whose failure explains most (the invitation, the role) first.
type txn struct {
	store  *Store
	items  []types.TransactWriteItem
	onFail []failure
	err    error
}

// failure explains a failed condition of one write as a domain error; it may
// read the item to tell "gone" from "changed".
type failure func(ctx context.Context) error

func (s *Store) newTxn() *txn { return &txn{store: s} }

// putNew writes an item that must not exist yet.
func (t *txn) putNew(record any, onFail failure) {
	t.putIf(record, expression.AttributeNotExists(expression.Name(attrPK)), onFail)
}

// putVersion replaces an item whose stored version is version.
func (t *txn) putVersion(record any, version int64, onFail failure) {
	t.putIf(record, versionIs(version), onFail)
}

// putIf writes an item if cond holds.
func (t *txn) putIf(record any, cond expression.ConditionBuilder, onFail failure) {
	av, expr := t.marshal(record, &cond)
	if av == nil {
		return
	}
	put := &types.Put{TableName: aws.String(t.store.table), Item: av}
	if expr != nil {
		put.ConditionExpression = expr.Condition()
		put.ExpressionAttributeNames = expr.Names()
		put.ExpressionAttributeValues = expr.Values()
	}
	t.add(types.TransactWriteItem{Put: put}, onFail)
}

// put writes an item whatever is stored (outbox items and audit entries,
// whose ids are fresh).
func (t *txn) put(record any) {
	av, _ := t.marshal(record, nil)
	if av == nil {
		return
	}
	t.add(types.TransactWriteItem{Put: &types.Put{TableName: aws.String(t.store.table), Item: av}}, nil)
}

// delete removes an item if cond holds; a nil cond deletes unconditionally
// (deleting an absent item is not an error in DynamoDB).
func (t *txn) delete(key itemKey, cond *expression.ConditionBuilder, onFail failure) {
	del := &types.Delete{TableName: aws.String(t.store.table), Key: key.attributes()}
	if cond != nil {
		expr, err := expression.NewBuilder().WithCondition(*cond).Build()
		if err != nil {
			t.fail(fmt.Errorf("condition for %s/%s: %w", key.PK, key.SK, err))
			return
		}
		del.ConditionExpression = expr.Condition()
		del.ExpressionAttributeNames = expr.Names()
		del.ExpressionAttributeValues = expr.Values()
	}
	t.add(types.TransactWriteItem{Delete: del}, onFail)
}

func (t *txn) marshal(record any, cond *expression.ConditionBuilder) (item, *expression.Expression) {
	av, err := marshal(record)
	if err != nil {
		t.fail(err)
		return nil, nil
	}
	if cond == nil {
		return av, nil
	}
	expr, err := expression.NewBuilder().WithCondition(*cond).Build()
	if err != nil {
		t.fail(fmt.Errorf("condition for %T: %w", record, err))
		return nil, nil
	}
	return av, &expr
}

func (t *txn) add(w types.TransactWriteItem, onFail failure) {
	t.items = append(t.items, w)
	t.onFail = append(t.onFail, onFail)
}

func (t *txn) fail(err error) {
	if t.err == nil {
		t.err = err
	}
}

// commit runs the transaction; nothing is written unless everything is.
func (t *txn) commit(ctx context.Context) error {
	if t.err != nil {
		return t.err
	}
	if len(t.items) == 0 {
		return nil
	}
	if len(t.items) > maxTransactionItems {
		return fmt.Errorf("%w: %d writes, DynamoDB allows %d", ErrTransactionTooLarge, len(t.items), maxTransactionItems)
	}
	for attempt := 0; ; attempt++ {
		_, err := t.store.db.TransactWriteItems(ctx, &dynamodb.TransactWriteItemsInput{
			TransactItems: t.items,
			// The token makes the SDK's retries of a timed-out call idempotent:
			// without it a retry of a write that did land fails its own
			// attribute_not_exists condition. A canceled attempt wrote
			// nothing, so the next attempt gets a token of its own.
			ClientRequestToken: aws.String(requestToken()),
		})
		if err == nil {
			return nil
		}
		var canceled *types.TransactionCanceledException
		if !errors.As(err, &canceled) {
			return fmt.Errorf("transaction: %w", err)
		}
		if attempt < len(conflictBackoff) && onlyConflicts(canceled) {
			// Another transaction held one of the items (two acceptances
			// adding to one member-counter shard). No condition failed,
			// so the same writes are still right: try again shortly. A
			// condition that fails on the retry explains itself as usual.
			if err := sleepJittered(ctx, conflictBackoff[attempt]); err != nil {
				return err
			}
			continue
		}
		return t.explain(ctx, canceled)
	}
}

// conflictBackoff are the waits before the retries of a transaction that
// lost only to other transactions; after the last one the conflict is the
// caller's (ErrVersionConflict).
var conflictBackoff = []time.Duration{5 * time.Millisecond, 10 * time.Millisecond, 20 * time.Millisecond,
	40 * time.Millisecond, 80 * time.Millisecond, 160 * time.Millisecond}

// onlyConflicts reports whether a transaction was canceled because other
// transactions held its items and for no other reason (no failed condition).
func onlyConflicts(canceled *types.TransactionCanceledException) bool {
	conflict := false
	for _, reason := range canceled.CancellationReasons {
		switch aws.ToString(reason.Code) {
		case reasonTransactionConflict:
			conflict = true
		case "", reasonNone:
		default:
			return false
		}
	}
	return conflict
}

// sleepJittered waits between d/2 and d, or until ctx ends, so that
// transactions that collided do not collide again in step.
func sleepJittered(ctx context.Context, d time.Duration) error {
	var b [1]byte
	_, _ = rand.Read(b[:])
	wait := d/2 + time.Duration(int64(d/2)*int64(b[0])/255)
	timer := time.NewTimer(wait)
	defer timer.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-timer.C:
		return nil
	}
}

// ErrTransactionTooLarge is returned, before anything is sent, for a change
// that needs more writes than one DynamoDB transaction holds.
var ErrTransactionTooLarge = errors.New("change too large for one transaction")

func requestToken() string {
	var b [16]byte
	_, _ = rand.Read(b[:]) // crypto/rand never fails on supported platforms
	return hex.EncodeToString(b[:])
}
