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

// memberKinds cycles the memberships of seeded roles: mostly guests, some
// managers with and without the guest role, an inviter.
var memberKinds = []struct {
	authority domain.Authority
	guestRole bool
}{
	{domain.Guest, false}, {domain.Guest, false}, {domain.Manager, false}, {domain.Guest, false},
	{domain.Manager, true}, {domain.Guest, false}, {domain.Inviter, false},
}

// seedMembers seeds n members (user ids from first) into role roleID;
// some share a name, one has none (listed by e-mail).
func seedMembers(tb testing.TB, s *dynamo.Store, roleID, first int64, n int, withRole bool) []domain.UserRole {
	tb.Helper()
	seed := domain.Seed{}
	if withRole {
		seed.Roles = []domain.Role{role(roleID, fmt.Sprint("Members ", roleID))}
	}
	for i := range int64(n) {
		uid := first + i
		name := fmt.Sprintf("Person %03d", (uid*37)%101)
		if uid%11 == 0 {
			name = ""
		}
		k := memberKinds[uid%int64(len(memberKinds))]
		seed.Users = append(seed.Users, domain.User{ID: uid, Sub: fmt.Sprint("sub-", uid), Name: name, Email: fmt.Sprint("m", uid, "@example.org")})
		seed.UserRoles = append(seed.UserRoles, domain.UserRole{ID: uid, UserID: uid, RoleID: roleID, Authority: k.authority,
			GuestRoleIncluded: k.guestRole, CreatedAt: testNow})
	}
	if err := s.Seed(tb.Context(), seed); err != nil {
		tb.Fatal(err)
	}
	return seed.UserRoles
}

// bruteForceMembers is U9's side of a role by name, as the index orders
// it: lower display name (else e-mail), then the user id as text.
func bruteForceMembers(urs []domain.UserRole, guests, descending bool) []int64 {
	type row struct {
		key string
		id  int64
	}
	var rows []row
	for _, ur := range urs {
		onSide := ur.Authority != domain.Guest // a manager with the guest role is on both
		if guests {
			onSide = ur.Authority == domain.Guest || ur.GuestRoleIncluded
		}
		if !onSide {
			continue
		}
		name := fmt.Sprintf("Person %03d", (ur.UserID*37)%101)
		if ur.UserID%11 == 0 {
			name = fmt.Sprint("m", ur.UserID, "@example.org")
		}
		rows = append(rows, row{strings.ToLower(name) + "#" + fmt.Sprint(ur.UserID), ur.UserID})
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

func memberIDs(ms []domain.Member) []int64 {
	ids := make([]int64, len(ms))
	for i, m := range ms {
		ids[i] = m.User.ID
	}
	return ids
}

// TestMembersPageOfRoleIsTrue: every page of either side, either way, is
// the brute-force page, with the exact total.
func TestMembersPageOfRoleIsTrue(t *testing.T) {
	s, _, _ := itemCountingStore(t)
	urs := seedMembers(t, s, 1, 1, 80, true)
	for _, guests := range []bool{true, false} {
		for _, desc := range []bool{false, true} {
			want := bruteForceMembers(urs, guests, desc)
			for _, size := range []int{7, 25} {
				for number := 0; number*size <= len(want); number++ {
					name := fmt.Sprintf("guests=%v desc=%v size %d page %d", guests, desc, size, number)
					_, page, err := s.MembersPageOfRole(ctx(t), 1, guests, desc, number*size, size)
					must(t, err)
					wantPage := want[min(number*size, len(want)):min(number*size+size, len(want))]
					if got := memberIDs(page.Items); !slices.Equal(got, wantPage) {
						t.Errorf("%s: %v, want %v", name, got, wantPage)
					}
					if page.Total != int64(len(want)) {
						t.Errorf("%s: total %d, want %d", name, page.Total, len(want))
					}
				}
			}
		}
	}
}

// TestMembersPageCostDoesNotGrowWithMembers: a page of a role's guests or
// non-guests costs no more requests with 800 members than with 40, and no
// more items read with 800 than with 400 (once each class of the side
// holds more than the page's window): each of the side's two classes is
// read up to the page's end and the total is the side's counter.
func TestMembersPageCostDoesNotGrowWithMembers(t *testing.T) {
	s, counter, _ := itemCountingStore(t)
	urs := seedMembers(t, s, 1, 1, 40, true)
	type cost struct{ requests, items int64 }
	pages := map[string]struct {
		guests, desc bool
		number, size int
	}{
		"guests, first page":     {true, false, 0, 5},
		"guests, page 3, desc":   {true, true, 3, 5},
		"non-guests, first page": {false, false, 0, 3},
		"non-guests, page 2":     {false, true, 2, 3},
	}
	measure := func(name string) cost {
		q := pages[name]
		r0, i0 := counter.snapshot()
		_, page, err := s.MembersPageOfRole(ctx(t), 1, q.guests, q.desc, q.number*q.size, q.size)
		must(t, err)
		r1, i1 := counter.snapshot()
		want := bruteForceMembers(urs, q.guests, q.desc)
		if got := memberIDs(page.Items); !slices.Equal(got, want[q.number*q.size:q.number*q.size+q.size]) || page.Total != int64(len(want)) {
			t.Errorf("%s: %v (total %d), want %v (total %d)", name, got, page.Total, want[q.number*q.size:q.number*q.size+q.size], len(want))
		}
		return cost{r1 - r0, i1 - i0}
	}
	small := map[string]cost{}
	for name := range pages {
		small[name] = measure(name)
	}
	urs = append(urs, seedMembers(t, s, 1, 41, 360, false)...)
	medium := map[string]cost{}
	for name := range pages {
		medium[name] = measure(name)
	}
	urs = append(urs, seedMembers(t, s, 1, 401, 400, false)...)
	for name := range pages {
		c := measure(name)
		q := pages[name]
		if c.requests > small[name].requests || c.items > medium[name].items {
			t.Errorf("%s: %+v with 40 members, %+v with 400, %+v with 800", name, small[name], medium[name], c)
		}
		// The role (GetItem, not counted as items), the side's two
		// classes up to the window (offset + size members each, and one
		// more that says whether a member follows the page), sent
		// together, and the side's 4 counter shards.
		if window := q.number*q.size + q.size + 1; c.requests > 4 || c.items > int64(2*window+4) {
			t.Errorf("%s: %d requests, %d items for a window of %d", name, c.requests, c.items, window)
		}
		t.Logf("%s: %d requests, %d items", name, c.requests, c.items)
	}
}

// TestSideCountersFollowMembershipWrites: the totals of a role's guests
// and non-guests (from their counters: pages of one) stay exact through
// authority changes, the guest role added and taken away, an acceptance
// that raises a membership, deletions and removals.
func TestSideCountersFollowMembershipWrites(t *testing.T) {
	s, _, _ := itemCountingStore(t)
	urs := seedMembers(t, s, 1, 1, 21, true)
	current := map[int64]domain.UserRole{}
	for _, ur := range urs {
		current[ur.UserID] = ur
	}
	check := func(step string) {
		t.Helper()
		var all []domain.UserRole
		for _, ur := range current {
			all = append(all, ur)
		}
		for _, guests := range []bool{true, false} {
			_, page, err := s.MembersPageOfRole(ctx(t), 1, guests, false, 0, 1)
			must(t, err)
			if want := len(bruteForceMembers(all, guests, false)); page.Total != int64(want) {
				t.Errorf("%s: guests=%v total %d, want %d", step, guests, page.Total, want)
			}
		}
	}
	check("seeded")
	update := func(uid int64, authority domain.Authority, guestRole bool) {
		t.Helper()
		ur, err := s.GetUserRole(ctx(t), uid, 1)
		must(t, err)
		ur.Authority, ur.GuestRoleIncluded = authority, guestRole
		must(t, s.UpdateUserRole(ctx(t), ur, nil, nil))
		current[uid] = ur
	}
	update(1, domain.Manager, true) // a guest becomes a manager with the guest role: on both sides
	check("guest to manager with guest role")
	update(1, domain.Manager, false) // the guest role taken away
	check("guest role taken away")
	update(2, domain.Manager, false) // a manager becomes... (2 mod 7 = 2: a manager) an inviter
	update(2, domain.Guest, false)   // and then a guest
	check("manager to guest")
	ur3, err := s.GetUserRole(ctx(t), 4, 1) // a manager with the guest role
	must(t, err)
	ur5, err := s.GetUserRole(ctx(t), 5, 1)
	must(t, err)
	must(t, s.DeleteUserRoles(ctx(t), []domain.UserRole{ur3, ur5}, nil, nil))
	delete(current, 4)
	delete(current, 5)
	check("deleted")
	// An acceptance that raises a guest's membership to MANAGER (no guest role).
	inv := invitation(900, "digest-900", 1)
	inv.IntendedAuthority = domain.Manager
	must(t, s.CreateInvitations(ctx(t), []domain.Invitation{inv}))
	inv.Version, inv.Status = 1, domain.InvitationAccepted
	u8, err := s.GetUser(ctx(t), 8)
	must(t, err)
	ur8, err := s.GetUserRole(ctx(t), 8, 1)
	must(t, err)
	ur8.Authority = domain.Manager
	must(t, s.SaveAcceptance(ctx(t), domain.Acceptance{Invitation: inv, User: u8, UpdatedUserRoles: []domain.UserRole{ur8}}))
	current[8] = ur8
	check("upgraded by an acceptance")
	ur6, err := s.GetUserRole(ctx(t), 6, 1) // an inviter
	must(t, err)
	must(t, s.ApplyRemoval(ctx(t), domain.Removal{UserRoles: []domain.UserRole{ur6}}))
	delete(current, 6)
	check("removed")
}

// TestSideCountersOfOlderRoles: a role written before its counters
// existed (no member or side counter shards) is read as its counters are,
// at the cost of a page (no COUNT Query of its members), until the index
// repair recounts it once; then the totals are exact at the same cost.
func TestSideCountersOfOlderRoles(t *testing.T) {
	s, counter, raw := itemCountingStore(t)
	urs := seedMembers(t, s, 1, 1, 30, true)
	for _, kind := range []string{"members", "guests", "others"} {
		for shard := range 4 {
			_, err := raw.DeleteItem(ctx(t), &dynamodb.DeleteItemInput{TableName: aws.String(raw.table), Key: map[string]types.AttributeValue{
				"pk": &types.AttributeValueMemberS{Value: fmt.Sprint("COUNT#", kind, "#1#", shard)}, "sk": &types.AttributeValueMemberS{Value: "COUNT"}},
				ConditionExpression: aws.String("attribute_exists(pk)")})
			must(t, err)
		}
	}
	noSPs := func(domain.Role) []string { return nil }
	type read struct {
		requests int64
		total    int64
		want     int64
	}
	reads := func() map[string]read {
		t.Helper()
		out := map[string]read{}
		for _, guests := range []bool{true, false} {
			r0, _ := counter.snapshot()
			_, p, err := s.MembersPageOfRole(ctx(t), 1, guests, false, 0, 2)
			must(t, err)
			r1, _ := counter.snapshot()
			out[fmt.Sprint("members page guests=", guests)] = read{r1 - r0, p.Total, int64(len(bruteForceMembers(urs, guests, false)))}
		}
		r0, _ := counter.snapshot()
		v, err := s.RoleView(ctx(t), 1, "", 2, noSPs)
		must(t, err)
		r1, _ := counter.snapshot()
		out["role view"] = read{r1 - r0, v.MemberCount, int64(len(urs))}
		return out
	}
	before := reads()
	if res := repairAll(t, s, 10); res.RoleCountsRepaired != 1 {
		t.Fatalf("the repair recounted %d roles, want role 1", res.RoleCountsRepaired)
	}
	after := reads()
	for name, b := range before {
		a := after[name]
		if b.total != 0 {
			t.Errorf("%s before the repair: total %d, want the 0 its missing counters hold (no second read path)", name, b.total)
		}
		if a.total != a.want {
			t.Errorf("%s after the repair: total %d, want %d", name, a.total, a.want)
		}
		// A members page: the role, its side's two classes, the counter
		// shards; the role view: the role, its index, the counter.
		want := int64(4)
		if name == "role view" {
			want = 3
		}
		if b.requests != want || a.requests != want {
			t.Errorf("%s: %d requests before the repair, %d after; want %d (the cost of a page) both times", name, b.requests, a.requests, want)
		}
	}
}
