package dynamo_test

import (
	"slices"
	"strings"
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

// The date repair leaves no copy of a bad date behind, whatever copies the
// projection derives: after it no item of the table carries the bad value,
// the repaired item holds the repaired date, and the index repair, which
// rebuilds every copy from its source, finds nothing left to change.
func TestRepairDatesLeavesNoCopyOfABadDate(t *testing.T) {
	const bad = "garbage-date"
	for _, tc := range []struct {
		name   string
		poison func(t *testing.T, client *dynamodb.Client, table string)
		check  func(t *testing.T, s *dynamo.Store)
	}{
		{"membership end date", func(t *testing.T, client *dynamodb.Client, table string) {
			ur := rawItem(t, client, table, "USER#"+id(10), "UR#"+id(5))
			ur["endDate"] = &types.AttributeValueMemberS{Value: bad}
			putRawItem(t, client, table, ur)
			u := rawItem(t, client, table, "USER#"+id(10), "USER")
			u["rs#"+id(5)].(*types.AttributeValueMemberM).Value["e"] = &types.AttributeValueMemberS{Value: bad}
			putRawItem(t, client, table, u)
		}, func(t *testing.T, s *dynamo.Store) {
			ur, err := s.GetUserRole(ctx(t), 10, 5)
			if err != nil || ur.EndDate == nil || !ur.EndDate.Equal(domain.MaxDate) {
				t.Errorf("membership %+v, %v; want its end date repaired to %s", ur, err, domain.MaxDate)
			}
			other, err := s.GetUserRole(ctx(t), 10, 6)
			if err != nil || other.EndDate == nil || !other.EndDate.Equal(testNow.AddDate(0, 6, 0)) {
				t.Errorf("the other membership %+v, %v; want it unchanged", other, err)
			}
		}},
		{"invitation expiry", func(t *testing.T, client *dynamodb.Client, table string) {
			inv := rawItem(t, client, table, "INV#"+id(1), "INV")
			inv["expiryDate"] = &types.AttributeValueMemberS{Value: bad}
			putRawItem(t, client, table, inv)
			for _, roleID := range []int64{5, 6} {
				link := rawItem(t, client, table, "INV#"+id(1), "ROLE#"+id(roleID))
				link["expiryDate"] = &types.AttributeValueMemberS{Value: bad}
				putRawItem(t, client, table, link)
			}
		}, func(t *testing.T, s *dynamo.Store) {
			inv, err := s.GetInvitation(ctx(t), 1)
			if err != nil || !inv.ExpiryDate.Equal(domain.MaxDate) {
				t.Errorf("invitation %+v, %v; want its expiry repaired to %s", inv, err, domain.MaxDate)
			}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			client, table := dynamotest.NewClient(t)
			raw := rawTable{Client: client, table: table}
			s := dynamo.New(client, table, func() time.Time { return testNow })
			must(t, s.CreateRole(ctx(t), role(5, "Poisoned", "wiki"), nil))
			must(t, s.CreateRole(ctx(t), role(6, "Healthy", "wiki"), nil))
			must(t, s.SaveAcceptance(ctx(t), domain.Acceptance{User: user(10, "sub-10"), NewUser: true,
				NewUserRoles: []domain.UserRole{membership(100, 10, 5), membership(101, 10, 6)}}))
			inv := crmLikeInvitation(1)
			inv.RoleIDs = []int64{5, 6}
			must(t, s.CreateInvitations(ctx(t), []domain.Invitation{inv}))

			tc.poison(t, client, table)
			repairs, err := s.RepairDates(ctx(t), true)
			must(t, err)
			if len(repairs) == 0 {
				t.Fatal("the date repair found nothing to repair")
			}
			repaired := tableItems(t, raw)
			for _, it := range repaired {
				if strings.Contains(it, bad) {
					t.Errorf("a copy keeps the bad date after the repair: %s", it)
				}
			}
			tc.check(t, s)
			if again, err := s.RepairDates(ctx(t), false); err != nil || len(again) != 0 {
				t.Errorf("a second date repair finds %+v, %v; want nothing", again, err)
			}
			if res := repairAll(t, s, 10); res.RoleCountsRepaired != 0 || res.MembersIndexesBuilt != 0 || res.SummariesWritten != 0 || res.WordItemsWritten != 0 {
				t.Errorf("the index repair repaired something after the date repair: %+v", res)
			}
			after := tableItems(t, raw)
			for _, it := range after {
				// The ready mark is the index repair's own, on a table no seed wrote.
				if !slices.Contains(repaired, it) && !strings.Contains(it, `"entity":"RoleListingReady"`) {
					t.Errorf("the index repair wrote a copy the date repair left different: %s", it)
				}
			}
		})
	}
}
