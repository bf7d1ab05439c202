package dynamo

import (
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// TestOnlyConflictsDecidesTheRetry: a transaction is tried again only when
// other transactions held its items and none of its conditions failed.
func TestOnlyConflictsDecidesTheRetry(t *testing.T) {
	reasons := func(codes ...string) *types.TransactionCanceledException {
		c := &types.TransactionCanceledException{}
		for _, code := range codes {
			c.CancellationReasons = append(c.CancellationReasons, types.CancellationReason{Code: aws.String(code)})
		}
		return c
	}
	cases := []struct {
		name     string
		canceled *types.TransactionCanceledException
		want     bool
	}{
		{"one conflict among untouched writes", reasons("None", "TransactionConflict", "None"), true},
		{"only conflicts", reasons("TransactionConflict", "TransactionConflict"), true},
		{"a failed condition beside a conflict", reasons("ConditionalCheckFailed", "TransactionConflict"), false},
		{"a failed condition", reasons("None", "ConditionalCheckFailed"), false},
		{"throughput exceeded", reasons("ProvisionedThroughputExceeded", "None"), false},
		{"no reasons", reasons(), false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := onlyConflicts(c.canceled); got != c.want {
				t.Fatalf("onlyConflicts = %v, want %v", got, c.want)
			}
		})
	}
}
