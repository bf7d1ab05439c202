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

// poison rewrites attributes of the stored item of an entity and id, as a
// version without bounded dates could have written them.
func poison(t *testing.T, client *dynamodb.Client, table, entity string, itemID int64, attrs map[string]types.AttributeValue) {
	t.Helper()
	out, err := client.Scan(ctx(t), &dynamodb.ScanInput{TableName: aws.String(table)})
	if err != nil {
		t.Fatal(err)
	}
	for _, av := range out.Items {
		e, _ := av["entity"].(*types.AttributeValueMemberS)
		n, _ := av["id"].(*types.AttributeValueMemberN)
		if e != nil && n != nil && e.Value == entity && n.Value == id(itemID) {
			for k, v := range attrs {
				av[k] = v
			}
			if _, err := client.PutItem(ctx(t), &dynamodb.PutItemInput{TableName: aws.String(table), Item: av}); err != nil {
				t.Fatal(err)
			}
			return
		}
	}
	t.Fatalf("no %s %d", entity, itemID)
}

// Issue 21 item 1: dates poisoned before dates were bounded are listed,
// repaired (an epoch in milliseconds read as seconds back to its date,
// anything else to the last storable second), and every listing reads
// again.
func TestRepairDates(t *testing.T) {
	client, table := dynamotest.NewClient(t)
	s := dynamo.New(client, table, func() time.Time { return testNow })
	intended := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
	invs := []domain.Invitation{crmLikeInvitation(1), crmLikeInvitation(2)}
	must(t, s.CreateInvitations(ctx(t), invs))
	must(t, s.CreateRole(ctx(t), role(5, "Poisoned", "wiki"), nil))
	msAsSeconds := time.Unix(intended.UnixMilli(), 0).UTC().Format(time.RFC3339Nano)
	poison(t, client, table, "Invitation", 1, map[string]types.AttributeValue{"expiryDate": &types.AttributeValueMemberS{Value: msAsSeconds}})
	poison(t, client, table, "Invitation", 2, map[string]types.AttributeValue{"roleExpiryDate": &types.AttributeValueMemberS{Value: "garbage"}})
	poison(t, client, table, "Role", 5, map[string]types.AttributeValue{"defaultExpiryDays": &types.AttributeValueMemberN{Value: "2147483648"}})

	listed, err := s.RepairDates(ctx(t), false)
	if err != nil || len(listed) != 3 {
		t.Fatalf("listed %+v %v, want 3 repairs", listed, err)
	}
	want := map[string]string{"Invitation 1 expiryDate": "2026-12-01T00:00:00Z", "Invitation 2 roleExpiryDate": "9999-12-31T23:59:59Z",
		"Role 5 defaultExpiryDays": "36500"}
	for _, r := range listed {
		key := r.Entity + " " + id(r.ID) + " " + r.Field
		if want[key] != r.Repaired {
			t.Errorf("%s repaired to %q, want %q", key, r.Repaired, want[key])
		}
	}
	if again, _ := s.RepairDates(ctx(t), false); len(again) != 3 {
		t.Errorf("listing repaired something: %+v", again)
	}
	if _, err := s.RepairDates(ctx(t), true); err != nil {
		t.Fatal(err)
	}
	if left, err := s.RepairDates(ctx(t), false); err != nil || len(left) != 0 {
		t.Fatalf("after repair: %+v %v", left, err)
	}
	inv, err := s.GetInvitation(ctx(t), 1)
	if err != nil || !inv.ExpiryDate.Equal(intended) {
		t.Errorf("invitation 1 expires %v %v, want %v", inv.ExpiryDate, err, intended)
	}
	inv2, err := s.GetInvitation(ctx(t), 2)
	if err != nil || inv2.RoleExpiryDate == nil || !inv2.RoleExpiryDate.Equal(domain.MaxDate) {
		t.Errorf("invitation 2: %+v %v", inv2.RoleExpiryDate, err)
	}
	r, err := s.GetRole(ctx(t), 5)
	if err != nil || r.DefaultExpiryDays != domain.MaxExpiryDays {
		t.Errorf("role: %d %v", r.DefaultExpiryDays, err)
	}
}

func crmLikeInvitation(n int64) domain.Invitation {
	return domain.Invitation{ID: n, IntendedAuthority: domain.Guest, Status: domain.InvitationOpen, Email: "a@example.org",
		CreatedAt: testNow, ExpiryDate: testNow.Add(14 * 24 * time.Hour), HashDigest: "digest-r" + id(n), RoleIDs: []int64{5}}
}
