package dynamo_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/edu-invite/invite/shared/domain"
	"github.com/edu-invite/invite/shared/dynamo"
)

// seedSides seeds role roleID with the members of each kind: n guests
// named "<guestName> NNN", m non-guests named "<otherName> NNN" and b
// managers with the guest role (on both sides), user ids from first.
func seedSides(tb testing.TB, s *dynamo.Store, roleID, first int64, guests, others, both int, guestName, otherName string) []domain.UserRole {
	tb.Helper()
	seed := domain.Seed{Roles: []domain.Role{role(roleID, fmt.Sprint("Sides ", roleID))}}
	add := func(n int, name string, authority domain.Authority, guestRole bool) {
		for i := range n {
			uid := first + int64(len(seed.Users))
			seed.Users = append(seed.Users, domain.User{ID: uid, Sub: fmt.Sprint("sub-", uid), Name: fmt.Sprintf("%s %03d", name, i),
				Email: fmt.Sprint("s", uid, "@example.org")})
			seed.UserRoles = append(seed.UserRoles, domain.UserRole{ID: uid, UserID: uid, RoleID: roleID, Authority: authority,
				GuestRoleIncluded: guestRole, CreatedAt: testNow})
		}
	}
	add(guests, guestName, domain.Guest, false)
	add(others, otherName, domain.Inviter, false)
	add(both, "Manager", domain.Manager, true)
	if err := s.Seed(tb.Context(), seed); err != nil {
		tb.Fatal(err)
	}
	return seed.UserRoles
}

// sideByName is the brute-force side of members seeded by seedSides, by
// lower-case name then user id, as the index orders them.
func sideByName(tb testing.TB, s *dynamo.Store, urs []domain.UserRole, guests, descending bool) []int64 {
	tb.Helper()
	type row struct {
		key string
		id  int64
	}
	var rows []row
	for _, ur := range urs {
		onSide := ur.Authority != domain.Guest
		if guests {
			onSide = ur.Authority == domain.Guest || ur.GuestRoleIncluded
		}
		if !onSide {
			continue
		}
		u, err := s.GetUser(tb.Context(), ur.UserID)
		if err != nil {
			tb.Fatal(err)
		}
		rows = append(rows, row{strings.ToLower(u.Name) + "#" + fmt.Sprint(u.ID), u.ID})
	}
	slices.SortFunc(rows, func(a, b row) int { return strings.Compare(a.key, b.key) })
	if descending {
		slices.Reverse(rows)
	}
	ids := make([]int64, len(rows))
	for i, r := range rows {
		ids[i] = r.id
	}
	return ids
}

// TestASidePageReadsNoneOfTheOtherSide: a page of a role's few guests,
// whose names sort after its many non-guests, reads the guests (and the
// managers with the guest role) only, not the non-guests before them; and
// the other way round. Every page equals the brute-force page with its
// exact total.
func TestASidePageReadsNoneOfTheOtherSide(t *testing.T) {
	s, counter, _ := itemCountingStore(t)
	urs := seedSides(t, s, 1, 1, 6, 240, 2, "Zora", "Aaron")
	tests := []struct {
		name         string
		guests, desc bool
		number, size int
	}{
		{"guests, first page", true, false, 0, 5},
		{"guests, second page", true, false, 1, 5},
		{"guests, descending", true, true, 0, 3},
		{"non-guests, first page", false, false, 0, 10},
		{"non-guests, last page, descending", false, true, 0, 4},
		{"non-guests, page 5", false, false, 5, 10},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			want := sideByName(t, s, urs, tc.guests, tc.desc)
			r0, i0 := counter.snapshot()
			_, page, err := s.MembersPageOfRole(ctx(t), 1, tc.guests, tc.desc, tc.number*tc.size, tc.size)
			must(t, err)
			r1, i1 := counter.snapshot()
			from := min(tc.number*tc.size, len(want))
			wantPage := want[from:min(from+tc.size, len(want))]
			if got := memberIDs(page.Items); !slices.Equal(got, wantPage) || page.Total != int64(len(want)) {
				t.Errorf("page %v (total %d), want %v (total %d)", got, page.Total, wantPage, len(want))
			}
			if window := tc.number*tc.size + tc.size; r1-r0 > 4 || i1-i0 > int64(2*window+4) {
				t.Errorf("%d requests, %d items read for a window of %d; want at most 4 and %d", r1-r0, i1-i0, window, 2*window+4)
			}
		})
	}
}

// TestIndexRepairGivesMembershipsTheirSideKeys: memberships written by an
// older version (gsi1 sort key UR#<userId>) on a role without
// membersSided are not in any side until the index repair rewrites them;
// then every page of both sides is the brute-force page, every membership
// is still listed once, and a second repair rebuilds nothing.
func TestIndexRepairGivesMembershipsTheirSideKeys(t *testing.T) {
	s, _, raw := itemCountingStore(t)
	urs := seedSides(t, s, 1, 1, 9, 7, 3, "Guest", "Staff")
	for _, ur := range urs {
		_, err := raw.UpdateItem(ctx(t), &dynamodb.UpdateItemInput{TableName: aws.String(raw.table),
			Key: map[string]types.AttributeValue{"pk": &types.AttributeValueMemberS{Value: "USER#" + id(ur.UserID)},
				"sk": &types.AttributeValueMemberS{Value: "UR#1"}},
			UpdateExpression:          aws.String("SET gsi1sk = :old"),
			ExpressionAttributeValues: map[string]types.AttributeValue{":old": &types.AttributeValueMemberS{Value: "UR#" + id(ur.UserID)}}})
		must(t, err)
	}
	_, err := raw.UpdateItem(ctx(t), &dynamodb.UpdateItemInput{TableName: aws.String(raw.table),
		Key:              map[string]types.AttributeValue{"pk": &types.AttributeValueMemberS{Value: "ROLE#1"}, "sk": &types.AttributeValueMemberS{Value: "ROLE"}},
		UpdateExpression: aws.String("REMOVE membersSided")})
	must(t, err)
	_, before, err := s.MembersPageOfRole(ctx(t), 1, true, false, 0, 5)
	must(t, err)
	if len(before.Items) != 0 {
		t.Errorf("before the repair: %d guests listed by side, want none (the keys are trusted)", len(before.Items))
	}
	if res := repairAll(t, s, 100); res.MembersIndexesBuilt != 1 {
		t.Errorf("first repair built %d members indexes, want 1", res.MembersIndexesBuilt)
	}
	for _, guests := range []bool{true, false} {
		for _, desc := range []bool{false, true} {
			want := sideByName(t, s, urs, guests, desc)
			for number := 0; number*4 < len(want); number++ {
				_, page, err := s.MembersPageOfRole(ctx(t), 1, guests, desc, number*4, 4)
				must(t, err)
				wantPage := want[number*4 : min(number*4+4, len(want))]
				if got := memberIDs(page.Items); !slices.Equal(got, wantPage) || page.Total != int64(len(want)) {
					t.Errorf("guests=%v desc=%v page %d: %v (total %d), want %v (total %d)", guests, desc, number, got, page.Total, wantPage, len(want))
				}
			}
		}
	}
	all, next, err := s.ListUserRolesOfRole(ctx(t), 1, "", 100)
	must(t, err)
	if len(all) != len(urs) || next != "" {
		t.Errorf("after the repair: %d memberships listed (next %q), want %d", len(all), next, len(urs))
	}
	if res := repairAll(t, s, 100); res.MembersIndexesBuilt != 0 {
		t.Errorf("second repair built %d members indexes, want 0", res.MembersIndexesBuilt)
	}
}
