package dynamo

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strconv"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

const entityAuthFailures = "AuthFailures"

// authFailuresKey is one key's failed authentications in one window, alone
// in its partition; the key (a credential's digest or a source address) is
// stored only as a digest.
func authFailuresKey(key string, windowStart time.Time) itemKey {
	sum := sha256.Sum256([]byte(key))
	return itemKey{PK: "AUTHFAIL#" + hex.EncodeToString(sum[:16]), SK: "W#" + strconv.FormatInt(windowStart.Unix(), 10)}
}

// AddAuthFailure counts one failed authentication under key in the window
// starting at windowStart, with one ADD, and returns the window's count: every
// function instance counts in the same item. The item expires an hour after
// the window (housekeeping; a later window is another item).
func (s *Store) AddAuthFailure(ctx context.Context, key string, windowStart, expires time.Time) (int, error) {
	out, err := s.db.UpdateItem(ctx, &dynamodb.UpdateItemInput{
		TableName:                aws.String(s.table),
		Key:                      authFailuresKey(key, windowStart).attributes(),
		UpdateExpression:         aws.String("ADD #n :one SET #e = :e, #ttl = :ttl"),
		ExpressionAttributeNames: map[string]string{"#n": "count", "#e": "entity", "#ttl": attrTTL},
		ExpressionAttributeValues: map[string]types.AttributeValue{
			":one": &types.AttributeValueMemberN{Value: "1"},
			":e":   &types.AttributeValueMemberS{Value: entityAuthFailures},
			":ttl": &types.AttributeValueMemberN{Value: strconv.FormatInt(expires.Add(time.Hour).Unix(), 10)},
		},
		ReturnValues: types.ReturnValueUpdatedNew,
	})
	if err != nil {
		return 0, fmt.Errorf("count a failed authentication: %w", err)
	}
	n, ok := out.Attributes["count"].(*types.AttributeValueMemberN)
	if !ok {
		return 0, fmt.Errorf("count a failed authentication: no count returned")
	}
	return strconv.Atoi(n.Value)
}
