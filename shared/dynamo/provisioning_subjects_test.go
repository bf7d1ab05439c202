package dynamo_test

import (
	"context"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/edu-invite/invite/shared/domain"
)

// TestGetDeliverySubjectsReadsMixedItemsAndLeavesOutAbsentOnes: one call
// returns roles and links by their keys, repeats once, and no entry for
// what does not exist.
func TestGetDeliverySubjectsReadsMixedItemsAndLeavesOutAbsentOnes(t *testing.T) {
	s := newStore(t)
	must(t, s.CreateRole(ctx(t), role(1, "One"), nil))
	must(t, s.PutLink(ctx(t), domain.SPLink{Kind: domain.ResourceGroup, LocalID: 1, SPID: "sp-1", RemoteID: "g-1", Status: domain.StatusProvisioned}))
	must(t, s.PutLink(ctx(t), domain.SPLink{Kind: domain.ResourceUser, LocalID: 7, SPID: "sp-1", RemoteID: "u-7", Status: domain.StatusProvisioned}))
	groupLink := domain.SPLinkKey{Kind: domain.ResourceGroup, LocalID: 1, SPID: "sp-1"}
	userLink := domain.SPLinkKey{Kind: domain.ResourceUser, LocalID: 7, SPID: "sp-1"}
	otherSP := domain.SPLinkKey{Kind: domain.ResourceUser, LocalID: 7, SPID: "sp-2"}
	got, err := s.GetDeliverySubjects(ctx(t), domain.SubjectsQuery{
		Users: []int64{7}, Roles: []int64{1, 1, 2},
		UserRoles: []domain.UserRoleKey{{UserID: 7, RoleID: 1}},
		Links:     []domain.SPLinkKey{groupLink, userLink, userLink, otherSP},
	})
	must(t, err)
	if len(got.Roles) != 1 || got.Roles[1].Name != "One" {
		t.Errorf("roles %+v, want role 1 only", got.Roles)
	}
	if len(got.Users) != 0 || len(got.UserRoles) != 0 {
		t.Errorf("users %+v and memberships %+v, want none (they do not exist)", got.Users, got.UserRoles)
	}
	if len(got.Links) != 2 || got.Links[groupLink].RemoteID != "g-1" || got.Links[userLink].RemoteID != "u-7" {
		t.Errorf("links %+v, want the group's and the user's at sp-1", got.Links)
	}
	if _, ok := got.Links[otherSP]; ok {
		t.Errorf("a link at sp-2 that does not exist was returned")
	}
}

// TestDeliverySubjectsTakeMembershipsFromTheUserSummary: the memberships
// of a user read anyway come from its item's role summary (authority, end
// date, whether the guest role is included), in the same one request; a
// membership the user does not hold is absent; one of a user not read is
// read as before. An entry that does not say whether the guest role is
// included (written before that was kept) is completed by the index
// repair, after which the summary answers it in the one request again.
func TestDeliverySubjectsTakeMembershipsFromTheUserSummary(t *testing.T) {
	s, requests, raw := countingStoreWithTable(t)
	seedUsers(t, s, 1, 2) // users 1 and 2, guests of role 1
	createRole(t, s, 2, "org-1")
	grant(t, s, 1, 2, 12)
	ur, err := s.GetUserRole(ctx(t), 1, 2)
	must(t, err)
	ur.Authority, ur.GuestRoleIncluded = domain.Inviter, true
	must(t, s.UpdateUserRole(ctx(t), ur, nil, nil))

	q := domain.SubjectsQuery{Users: []int64{1}, Roles: []int64{1},
		UserRoles: []domain.UserRoleKey{{UserID: 1, RoleID: 1}, {UserID: 1, RoleID: 2}, {UserID: 1, RoleID: 3}, {UserID: 2, RoleID: 1}}}
	before := requests.Load()
	got, err := s.GetDeliverySubjects(ctx(t), q)
	must(t, err)
	if n := requests.Load() - before; n != 1 {
		t.Errorf("%d requests, want 1", n)
	}
	check := func(got domain.DeliverySubjects) {
		t.Helper()
		guest, inviter := got.UserRoles[domain.UserRoleKey{UserID: 1, RoleID: 1}], got.UserRoles[domain.UserRoleKey{UserID: 1, RoleID: 2}]
		if guest.ID != 1 || guest.Authority != domain.Guest || !guest.Provisioned() {
			t.Errorf("user 1 in role 1: %+v, want membership 1, a provisioned guest", guest)
		}
		if inviter.ID != 12 || inviter.Authority != domain.Inviter || !inviter.GuestRoleIncluded || !inviter.Provisioned() {
			t.Errorf("user 1 in role 2: %+v, want membership 12, an inviter with the guest role", inviter)
		}
		if _, ok := got.UserRoles[domain.UserRoleKey{UserID: 1, RoleID: 3}]; ok {
			t.Errorf("user 1 holds no role 3, yet a membership came back")
		}
		if other := got.UserRoles[domain.UserRoleKey{UserID: 2, RoleID: 1}]; other.ID != 2 || other.Authority != domain.Guest {
			t.Errorf("user 2 in role 1 (user not read): %+v", other)
		}
	}
	check(got)

	// The entry of role 2 as written before the guest role was kept in it.
	_, err = raw.UpdateItem(context.Background(), &dynamodb.UpdateItemInput{TableName: aws.String(raw.table),
		Key:              map[string]types.AttributeValue{"pk": &types.AttributeValueMemberS{Value: "USER#1"}, "sk": &types.AttributeValueMemberS{Value: "USER"}},
		UpdateExpression: aws.String("REMOVE #rs.g"), ExpressionAttributeNames: map[string]string{"#rs": "rs#2"}})
	must(t, err)
	if res := repairAll(t, s, 100); res.SummariesWritten != 1 {
		t.Errorf("the repair wrote %d summaries, want user 1's", res.SummariesWritten)
	}
	before = requests.Load()
	got, err = s.GetDeliverySubjects(ctx(t), q)
	must(t, err)
	if n := requests.Load() - before; n != 1 {
		t.Errorf("%d requests after the repair, want 1", n)
	}
	check(got)
}
