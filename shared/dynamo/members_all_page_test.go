package dynamo_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/edu-invite/invite/shared/domain"
)

// TestAllMembersPageOfRole: every page of all of a role's members (U10
// paged), either way, is the brute-force page by name with whole users and
// the exact total, also past the last member; a page costs no more
// requests with 400 members than with 40 (the role, the index window with
// its keys-only skip, one BatchGetItem of the users and the counter).
func TestAllMembersPageOfRole(t *testing.T) {
	s, counter, _ := itemCountingStore(t)
	urs := seedMembers(t, s, 1, 1, 40, true)
	byName := func(desc bool) []int64 { return mergeUnique(urs, desc) }
	check := func(label string, desc bool, number, size int) (requests int64) {
		t.Helper()
		want := byName(desc)
		r0, _ := counter.snapshot()
		_, page, err := s.AllMembersPageOfRole(ctx(t), 1, desc, number*size, size)
		must(t, err)
		r1, _ := counter.snapshot()
		from := min(number*size, len(want))
		wantPage := want[from:min(from+size, len(want))]
		if got := memberIDs(page.Items); !slices.Equal(got, wantPage) || page.Total != int64(len(want)) {
			t.Errorf("%s desc=%v page %d of %d: %v (total %d), want %v (total %d)", label, desc, number, size, got, page.Total, wantPage, len(want))
		}
		for _, m := range page.Items {
			if m.User.Sub != fmt.Sprint("sub-", m.User.ID) || m.UserRole.RoleID != 1 {
				t.Errorf("%s: member %d without its whole user: %+v", label, m.User.ID, m.User)
			}
		}
		return r1 - r0
	}
	for _, desc := range []bool{false, true} {
		for _, size := range []int{6, 40} {
			for number := 0; number*size <= 45; number++ {
				check("40 members", desc, number, size)
			}
		}
	}
	first, deep := check("40 members", false, 0, 10), check("40 members", false, 3, 10)
	urs = append(urs, seedMembers(t, s, 1, 41, 360, false)...)
	for _, desc := range []bool{false, true} {
		for _, number := range []int{0, 7, 39, 40, 41} {
			check("400 members", desc, number, 10)
		}
	}
	if r := check("400 members", false, 0, 10); r > first || r > 3 {
		t.Errorf("first page: %d requests with 400 members, %d with 40; want at most 3", r, first)
	}
	if r := check("400 members", false, 3, 10); r > deep || r > 4 {
		t.Errorf("fourth page: %d requests with 400 members, %d with 40; want at most 4", r, deep)
	}
}

// mergeUnique is every member of the role by name (as bruteForceMembers
// orders a side), each once.
func mergeUnique(urs []domain.UserRole, desc bool) []int64 {
	everyone := slices.Clone(urs)
	for i := range everyone {
		everyone[i].Authority, everyone[i].GuestRoleIncluded = domain.Guest, false
	}
	return bruteForceMembers(everyone, true, desc)
}
