package dynamo_test

import (
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/edu-invite/invite/shared/domain"
	"github.com/edu-invite/invite/shared/dynamo"
	"github.com/edu-invite/invite/shared/dynamo/dynamotest"
)

// rawItem reads an item as stored.
func rawItem(t *testing.T, client *dynamodb.Client, table, pk, sk string) map[string]types.AttributeValue {
	t.Helper()
	out, err := client.GetItem(ctx(t), &dynamodb.GetItemInput{TableName: aws.String(table), ConsistentRead: aws.Bool(true),
		Key: map[string]types.AttributeValue{"pk": &types.AttributeValueMemberS{Value: pk}, "sk": &types.AttributeValueMemberS{Value: sk}}})
	if err != nil || out.Item == nil {
		t.Fatalf("item %s/%s: %v", pk, sk, err)
	}
	return out.Item
}

func putRawItem(t *testing.T, client *dynamodb.Client, table string, av map[string]types.AttributeValue) {
	t.Helper()
	if _, err := client.PutItem(ctx(t), &dynamodb.PutItemInput{TableName: aws.String(table), Item: av}); err != nil {
		t.Fatal(err)
	}
}

// The date repair fixes a bad date in its copies too: a membership's end
// date in its user's role summary, an invitation's expiry on its
// InvitationRole items.
func TestRepairDatesFixesTheCopies(t *testing.T) {
	client, table := dynamotest.NewClient(t)
	s := dynamo.New(client, table, func() time.Time { return testNow })
	must(t, s.CreateRole(ctx(t), role(5, "Poisoned", "wiki"), nil))
	must(t, s.SaveAcceptance(ctx(t), domain.Acceptance{User: user(10, "sub-10"), NewUser: true,
		NewUserRoles: []domain.UserRole{membership(100, 10, 5)}}))
	must(t, s.CreateInvitations(ctx(t), []domain.Invitation{crmLikeInvitation(1)}))
	bad := "garbage"

	// As a version without bounded dates wrote them: the item and its copy.
	ur := rawItem(t, client, table, "USER#"+id(10), "UR#"+id(5))
	ur["endDate"] = &types.AttributeValueMemberS{Value: bad}
	putRawItem(t, client, table, ur)
	u := rawItem(t, client, table, "USER#"+id(10), "USER")
	entry := u["rs#"+id(5)].(*types.AttributeValueMemberM)
	entry.Value["e"] = &types.AttributeValueMemberS{Value: bad}
	putRawItem(t, client, table, u)
	inv := rawItem(t, client, table, "INV#"+id(1), "INV")
	inv["expiryDate"] = &types.AttributeValueMemberS{Value: bad}
	putRawItem(t, client, table, inv)
	link := rawItem(t, client, table, "INV#"+id(1), "ROLE#"+id(5))
	link["expiryDate"] = &types.AttributeValueMemberS{Value: bad}
	putRawItem(t, client, table, link)

	if _, err := s.RepairDates(ctx(t), true); err != nil {
		t.Fatal(err)
	}
	want := domain.MaxDate.Format(time.RFC3339)
	summary := rawItem(t, client, table, "USER#"+id(10), "USER")["rs#"+id(5)].(*types.AttributeValueMemberM)
	if e, _ := summary.Value["e"].(*types.AttributeValueMemberS); e == nil || !sameInstant(e.Value, want) {
		t.Errorf("role summary end date %+v, want %s", summary.Value["e"], want)
	}
	copied := rawItem(t, client, table, "INV#"+id(1), "ROLE#"+id(5))
	if e, _ := copied["expiryDate"].(*types.AttributeValueMemberS); e == nil || !sameInstant(e.Value, want) {
		t.Errorf("invitation copy expiry %+v, want %s", copied["expiryDate"], want)
	}
}

func sameInstant(a, b string) bool {
	ta, errA := time.Parse(time.RFC3339Nano, a)
	tb, errB := time.Parse(time.RFC3339Nano, b)
	return errA == nil && errB == nil && ta.Equal(tb)
}
