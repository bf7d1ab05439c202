package dynamo_test

import (
	"context"
	"fmt"
	"slices"
	"sync/atomic"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/smithy-go/middleware"

	"github.com/edu-invite/invite/shared/dynamo"
	"github.com/edu-invite/invite/shared/dynamo/dynamotest"
)

// wholeItemCountingStore is a store that counts the items its Queries
// return whole (more than their four keys): what a page transfers and
// decodes, unlike the keys a skip passes.
func wholeItemCountingStore(tb testing.TB) (*dynamo.Store, *atomic.Int64) {
	tb.Helper()
	var whole atomic.Int64
	client, table := dynamotest.NewClient(tb, func(o *dynamodb.Options) {
		o.APIOptions = append(o.APIOptions, func(stack *middleware.Stack) error {
			return stack.Initialize.Add(middleware.InitializeMiddlewareFunc("countWholeItems",
				func(ctx context.Context, in middleware.InitializeInput, next middleware.InitializeHandler) (middleware.InitializeOutput, middleware.Metadata, error) {
					out, md, err := next.HandleInitialize(ctx, in)
					if res, ok := out.Result.(*dynamodb.QueryOutput); ok {
						for _, it := range res.Items {
							if len(it) > 4 {
								whole.Add(1)
							}
						}
					}
					return out, md, err
				}), middleware.Before)
		})
	})
	return dynamo.New(client, table, nil), &whole
}

// TestDeepMembersPageReadsOnlyItsPageWhole: a deep page of a role's
// guests or non-guests (offset past 100) is the brute-force page with the
// exact total, either way, also at and past the side's end, and the
// members before it are passed as keys: the Queries return at most the
// page's window whole from each class, not offset + size of each.
func TestDeepMembersPageReadsOnlyItsPageWhole(t *testing.T) {
	s, whole := wholeItemCountingStore(t)
	urs := seedMembers(t, s, 1, 1, 420, true)
	for _, guests := range []bool{true, false} {
		for _, desc := range []bool{false, true} {
			want := bruteForceMembers(urs, guests, desc)
			for _, offset := range []int{100, 101, 137, len(want) - 3, len(want), len(want) + 5} {
				const size = 7
				name := fmt.Sprintf("guests=%v desc=%v offset %d", guests, desc, offset)
				before := whole.Load()
				_, page, err := s.MembersPageOfRole(ctx(t), 1, guests, desc, offset, size)
				must(t, err)
				read := whole.Load() - before
				wantPage := want[min(offset, len(want)):min(offset+size, len(want))]
				if got := memberIDs(page.Items); !slices.Equal(got, wantPage) {
					t.Errorf("%s: %v, want %v", name, got, wantPage)
				}
				if page.Total != int64(len(want)) {
					t.Errorf("%s: total %d, want %d", name, page.Total, len(want))
				}
				// The role's item and each class's window (the page and
				// one more that says whether a member follows it).
				if read > 1+2*(size+1) {
					t.Errorf("%s: %d items read whole, want at most %d", name, read, 1+2*(size+1))
				}
			}
		}
	}
}
