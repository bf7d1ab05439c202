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

// TestMemberCountersFollowEveryMembershipWrite: the member counter of a
// role is right after each kind of write of memberships (acceptance with a
// new user in two roles, acceptances of more users, a deletion of a
// membership, a removal that deletes the user, the seed into an existing
// and a seeded role), and a page of roles is counted in one request.
func TestMemberCountersFollowEveryMembershipWrite(t *testing.T) {
	s, requests := countingStore(t)
	for _, r := range []domain.Role{role(1, "One"), role(2, "Two"), role(3, "Three")} {
		must(t, s.CreateRole(ctx(t), r, nil))
	}
	check := func(step string, want map[int64]int64) {
		t.Helper()
		ids := []int64{1, 2, 3}
		if _, seeded := want[5]; seeded {
			ids = append(ids, 5)
		}
		before := requests.Load()
		got, err := s.CountMembersOfRoles(ctx(t), ids)
		must(t, err)
		if n := requests.Load() - before; n != 1 {
			t.Errorf("%s: %d requests to count %d roles, want 1", step, n, len(ids))
		}
		for _, roleID := range ids {
			if got[roleID] != want[roleID] {
				t.Errorf("%s: role %d counts %d members, want %d", step, roleID, got[roleID], want[roleID])
			}
			if n, err := s.CountUserRolesOfRole(ctx(t), roleID); err != nil || n != want[roleID] {
				t.Errorf("%s: CountUserRolesOfRole(%d) = %d, %v", step, roleID, n, err)
			}
		}
	}
	check("created", map[int64]int64{})

	must(t, s.CreateInvitations(ctx(t), []domain.Invitation{invitation(1, "digest-1", 1, 2)}))
	must(t, s.SaveAcceptance(ctx(t), acceptance())) // user 10 joins roles 1 and 2
	for _, uid := range []int64{11, 12, 13, 14, 15} {
		inv := invitation(uid, "digest-"+id(uid), 1)
		must(t, s.CreateInvitations(ctx(t), []domain.Invitation{inv}))
		inv.Version, inv.Status = 1, domain.InvitationAccepted
		must(t, s.SaveAcceptance(ctx(t), domain.Acceptance{Invitation: inv, User: user(uid, "sub-"+id(uid)), NewUser: true,
			NewUserRoles: []domain.UserRole{membership(100+uid, uid, 1)}}))
	}
	check("accepted", map[int64]int64{1: 6, 2: 1})

	// Users 11 and 15 share a counter shard (11 mod 4 = 15 mod 4): one
	// transaction removes both (a transaction may touch the shard once).
	ur11, err := s.GetUserRole(ctx(t), 11, 1)
	must(t, err)
	ur15, err := s.GetUserRole(ctx(t), 15, 1)
	must(t, err)
	must(t, s.DeleteUserRoles(ctx(t), []domain.UserRole{ur11, ur15}, nil, nil))
	check("deleted", map[int64]int64{1: 4, 2: 1})

	ur12, err := s.GetUserRole(ctx(t), 12, 1)
	must(t, err)
	u12, err := s.GetUser(ctx(t), 12)
	must(t, err)
	must(t, s.ApplyRemoval(ctx(t), domain.Removal{UserRoles: []domain.UserRole{ur12}, DeleteUser: &u12}))
	ur10, err := s.GetUserRole(ctx(t), 10, 2)
	must(t, err)
	must(t, s.ApplyRemoval(ctx(t), domain.Removal{UserRoles: []domain.UserRole{ur10}}))
	check("expired", map[int64]int64{1: 3, 2: 0})

	seed := domain.Seed{Roles: []domain.Role{role(5, "Five")}}
	for uid := int64(200); uid < 210; uid++ {
		roleID := int64(1)
		if uid%2 == 0 {
			roleID = 5
		}
		seed.Users = append(seed.Users, user(uid, "sub-"+id(uid)))
		seed.UserRoles = append(seed.UserRoles, membership(uid, uid, roleID))
	}
	must(t, s.Seed(ctx(t), seed))
	check("seeded", map[int64]int64{1: 8, 2: 0, 5: 5})

	r3, err := s.GetRole(ctx(t), 3)
	must(t, err)
	must(t, s.DeleteRole(ctx(t), r3, nil))
	if n, err := s.CountUserRolesOfRole(ctx(t), 3); err != nil || n != 0 {
		t.Errorf("deleted role counts %d, %v", n, err)
	}
}

// TestMemberCountOfRolesOfOlderVersions: a role written before the
// counters existed (no shards, or shards made by a later ADD without
// `exact`) is found and recounted by RepairIndexes once; reads trust the
// counter, before (what it holds) and after (every membership).
func TestMemberCountOfRolesOfOlderVersions(t *testing.T) {
	client, table := dynamotest.NewClient(t)
	s := dynamo.New(client, table, func() time.Time { return testNow })
	must(t, s.CreateRole(ctx(t), role(1, "One"), nil))
	must(t, s.CreateRole(ctx(t), role(2, "Two"), nil))
	must(t, s.CreateInvitations(ctx(t), []domain.Invitation{invitation(1, "digest-1", 1, 2)}))
	// Role 1 as an older version left it: no counter items.
	for shard := range 4 {
		_, err := client.DeleteItem(ctx(t), &dynamodb.DeleteItemInput{TableName: aws.String(table), Key: map[string]types.AttributeValue{
			"pk": &types.AttributeValueMemberS{Value: "COUNT#members#1#" + id(int64(shard))}, "sk": &types.AttributeValueMemberS{Value: "COUNT"}},
			ConditionExpression: aws.String("attribute_exists(pk)")})
		must(t, err)
	}
	must(t, s.SaveAcceptance(ctx(t), acceptance())) // user 10 joins role 1 (and 2): ADD +1 on one shard
	for _, uid := range []int64{11, 12} {
		inv := invitation(uid, "digest-"+id(uid), 1)
		must(t, s.CreateInvitations(ctx(t), []domain.Invitation{inv}))
		inv.Version, inv.Status = 1, domain.InvitationAccepted
		must(t, s.SaveAcceptance(ctx(t), domain.Acceptance{Invitation: inv, User: user(uid, "sub-"+id(uid)), NewUser: true,
			NewUserRoles: []domain.UserRole{membership(100+uid, uid, 1)}}))
	}
	// Pretend the first two memberships predate the counters.
	_, err := client.UpdateItem(ctx(t), &dynamodb.UpdateItemInput{TableName: aws.String(table), Key: map[string]types.AttributeValue{
		"pk": &types.AttributeValueMemberS{Value: "COUNT#members#1#" + id(10%4)}, "sk": &types.AttributeValueMemberS{Value: "COUNT"}},
		UpdateExpression: aws.String("SET #v = :zero"), ExpressionAttributeNames: map[string]string{"#v": "value"},
		ExpressionAttributeValues: map[string]types.AttributeValue{":zero": &types.AttributeValueMemberN{Value: "0"}}})
	must(t, err)
	// The counter is read as it is (2 of the 3) until the repair
	// recounts it, once; there is no second read path.
	if n, err := s.CountUserRolesOfRole(ctx(t), 1); err != nil || n != 2 {
		t.Fatalf("role of an older version before the repair counts %d, %v; want the 2 its counter holds", n, err)
	}
	if res := repairAll(t, s, 10); res.RoleCountsRepaired != 1 {
		t.Fatalf("the repair recounted %d roles, want role 1", res.RoleCountsRepaired)
	}
	if n, err := s.CountUserRolesOfRole(ctx(t), 1); err != nil || n != 3 {
		t.Fatalf("role of an older version after the repair counts %d, %v; want its 3 memberships", n, err)
	}
	// Now the counter is exact: a change is counted from it.
	ur, err := s.GetUserRole(ctx(t), 11, 1)
	must(t, err)
	must(t, s.DeleteUserRoles(ctx(t), []domain.UserRole{ur}, nil, nil))
	counts, err := s.CountMembersOfRoles(ctx(t), []int64{1})
	must(t, err)
	if counts[1] != 2 {
		t.Errorf("after recount and a deletion: %d members, want 2", counts[1])
	}
}

// TestConcurrentAcceptancesIntoOneRoleAllLand: acceptances into one role
// by users whose memberships share a member-counter shard, at the same
// instant, all succeed (a transaction that lost only to another one is
// retried) and the counter counts every one.
func TestConcurrentAcceptancesIntoOneRoleAllLand(t *testing.T) {
	s := newStore(t)
	must(t, s.CreateRole(ctx(t), role(1, "Lab"), nil))
	uids := []int64{11, 15, 19, 23, 27, 31, 35, 39} // all ≡ 3 mod 4: one shard
	for _, uid := range uids {
		must(t, s.CreateInvitations(ctx(t), []domain.Invitation{invitation(uid, "digest-"+id(uid), 1)}))
	}
	errs := make(chan error, len(uids))
	start := make(chan struct{})
	for _, uid := range uids {
		go func() {
			inv := invitation(uid, "digest-"+id(uid), 1)
			inv.Version, inv.Status = 1, domain.InvitationAccepted
			<-start
			errs <- s.SaveAcceptance(ctx(t), domain.Acceptance{Invitation: inv, User: user(uid, "sub-"+id(uid)), NewUser: true,
				NewUserRoles: []domain.UserRole{membership(100+uid, uid, 1)}})
		}()
	}
	close(start)
	for range uids {
		if err := <-errs; err != nil {
			t.Errorf("an acceptance failed: %v", err)
		}
	}
	got, err := s.CountMembersOfRoles(ctx(t), []int64{1})
	must(t, err)
	if got[1] != int64(len(uids)) {
		t.Fatalf("role 1 counts %d members, want %d", got[1], len(uids))
	}
}
