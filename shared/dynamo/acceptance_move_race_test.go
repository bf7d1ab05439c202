package dynamo_test

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	awsmiddleware "github.com/aws/aws-sdk-go-v2/aws/middleware"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/smithy-go/middleware"

	"github.com/edu-invite/invite/shared/domain"
	"github.com/edu-invite/invite/shared/dynamo"
	"github.com/edu-invite/invite/shared/dynamo/dynamotest"
)

// beforeNextTransaction runs *hook once, just before the next
// TransactWriteItems the client sends (the hook's own requests pass).
func beforeNextTransaction(hook *atomic.Pointer[func()]) func(*dynamodb.Options) {
	return func(o *dynamodb.Options) {
		o.APIOptions = append(o.APIOptions, func(stack *middleware.Stack) error {
			return stack.Initialize.Add(middleware.InitializeMiddlewareFunc("beforeNextTransaction",
				func(ctx context.Context, in middleware.InitializeInput, next middleware.InitializeHandler) (middleware.InitializeOutput, middleware.Metadata, error) {
					if awsmiddleware.GetOperationName(ctx) == "TransactWriteItems" {
						if f := hook.Swap(nil); f != nil {
							(*f)()
						}
					}
					return next.HandleInitialize(ctx, in)
				}), middleware.Before)
		})
	}
}

// An acceptance that read its role in one organization, and commits after
// the role moved to another, loses with a conflict and writes nothing: the
// move's rebuild of its members' organization items ran without it, so
// committing would list the new member in the organization the role left.
// Its retry reads the role again and lists the member where the role is.
func TestAnAcceptanceMeetingARoleMoveIsListedWhereTheRoleIs(t *testing.T) {
	var hook atomic.Pointer[func()]
	client, table := dynamotest.NewClient(t, beforeNextTransaction(&hook))
	s := dynamo.New(client, table, func() time.Time { return testNow })
	raw := rawTable{Client: client, table: table}
	r := role(1, "Physics")
	r.OrganizationGUID = "org-1"
	must(t, s.CreateRole(ctx(t), r, nil))

	move := func() {
		stored, err := s.GetRole(ctx(t), 1)
		must(t, err)
		stored.OrganizationGUID = "org-2"
		must(t, s.UpdateRole(ctx(t), stored, nil))
	}
	hook.Store(&move)
	acc := domain.Acceptance{User: user(10, "sub-10"), NewUser: true, NewUserRoles: []domain.UserRole{membership(100, 10, 1)}}
	if err := s.SaveAcceptance(ctx(t), acc); !errors.Is(err, domain.ErrVersionConflict) {
		t.Fatalf("acceptance committed across the move: %v, want a version conflict", err)
	}
	if hook.Load() != nil {
		t.Fatal("the move did not run before the acceptance's transaction")
	}
	if n := orgItems(t, raw, 10); n != 0 {
		t.Fatalf("the lost acceptance left %d organization items", n)
	}

	must(t, s.SaveAcceptance(ctx(t), acc))
	for _, tc := range []struct {
		org  string
		want bool
	}{{"org-1", false}, {"org-2", true}} {
		out, err := client.GetItem(ctx(t), &dynamodb.GetItemInput{TableName: aws.String(table), ConsistentRead: aws.Bool(true),
			Key: map[string]types.AttributeValue{"pk": &types.AttributeValueMemberS{Value: "USER#10"}, "sk": &types.AttributeValueMemberS{Value: "ORG#" + tc.org}}})
		must(t, err)
		if (out.Item != nil) != tc.want {
			t.Errorf("user 10's item in %s: %v, want present %v", tc.org, out.Item, tc.want)
		}
	}
}
