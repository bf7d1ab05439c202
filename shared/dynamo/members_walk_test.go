package dynamo_test

import (
	"encoding/base64"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/edu-invite/invite/shared/domain"
	"github.com/edu-invite/invite/shared/dynamo"
)

// memberWalk is one of the API's walks of a role's members: a side (U9)
// or every member (U10 paged), either way.
type memberWalk struct {
	name       string
	all        bool
	guests     bool
	descending bool
}

var memberWalks = []memberWalk{
	{"guests", false, true, false},
	{"guests, descending", false, true, true},
	{"non-guests", false, false, false},
	{"non-guests, descending", false, false, true},
	{"all", true, false, false},
	{"all, descending", true, false, true},
}

// first is the walk's first page, by page number 0.
func (w memberWalk) first(t *testing.T, s *dynamo.Store, roleID int64, size int) (domain.Page[domain.Member], error) {
	return w.at(t, s, roleID, 0, size)
}

// at is the walk's page from an offset.
func (w memberWalk) at(t *testing.T, s *dynamo.Store, roleID int64, offset, size int) (domain.Page[domain.Member], error) {
	if w.all {
		_, page, err := s.AllMembersPageOfRole(ctx(t), roleID, w.descending, offset, size)
		return page, err
	}
	_, page, err := s.MembersPageOfRole(ctx(t), roleID, w.guests, w.descending, offset, size)
	return page, err
}

// after is the walk's page after a token.
func (w memberWalk) after(t *testing.T, s *dynamo.Store, roleID int64, token string, size int) (domain.Page[domain.Member], error) {
	if w.all {
		_, page, err := s.AllMembersPageOfRoleAfter(ctx(t), roleID, w.descending, token, size)
		return page, err
	}
	_, page, err := s.MembersPageOfRoleAfter(ctx(t), roleID, w.guests, w.descending, token, size)
	return page, err
}

// want is the brute-force answer of the walk.
func (w memberWalk) want(urs []domain.UserRole) []int64 {
	if w.all {
		return mergeUnique(urs, w.descending)
	}
	return bruteForceMembers(urs, w.guests, w.descending)
}

// TestMembersWalkByToken: following each page's Next from the first page
// walks every member of the walk once, in name order, either way, for
// either side and for every member, with the walk's exact total on every
// page and no Next on the last; every page by token costs the same
// requests and no more items than a page's window (the role, the page and
// one more of each Query, the page's users and the counter), at the first
// page after the first as at the last, in a role of 60 members and one of
// 460.
func TestMembersWalkByToken(t *testing.T) {
	s, counter, _ := itemCountingStore(t)
	urs := seedMembers(t, s, 1, 1, 60, true)
	const size = 7
	walk := func(t *testing.T, w memberWalk) (requests, items []int64) {
		want := w.want(urs)
		page, err := w.first(t, s, 1, size)
		must(t, err)
		got := memberIDs(page.Items)
		for n := 1; page.Next != ""; n++ {
			if n > len(want) {
				t.Fatalf("%d pages of %d members: the walk does not end", n, len(want))
			}
			r0, i0 := counter.snapshot()
			page, err = w.after(t, s, 1, page.Next, size)
			must(t, err)
			r1, i1 := counter.snapshot()
			requests, items = append(requests, r1-r0), append(items, i1-i0)
			got = append(got, memberIDs(page.Items)...)
			if page.Total != int64(len(want)) {
				t.Errorf("page %d: total %d, want %d", n, page.Total, len(want))
			}
		}
		if !slices.Equal(got, want) {
			t.Errorf("walked %v,\nwant %v", got, want)
		}
		return requests, items
	}
	for _, members := range []int{60, 460} {
		if members > len(urs) {
			urs = append(urs, seedMembers(t, s, 1, int64(len(urs)+1), members-len(urs), false)...)
		}
		for _, w := range memberWalks {
			t.Run(fmt.Sprintf("%d members, %s", members, w.name), func(t *testing.T) {
				requests, items := walk(t, w)
				if len(requests) < 2 {
					t.Fatalf("%d pages by token, want several", len(requests))
				}
				// Side: the role (GetItem), two Queries of size+1 and the
				// side's 4 counter shards. All: the role, one Query of
				// size+1, the page's users and the 4 counter shards.
				bound := int64(2*(size+1) + 4)
				if w.all {
					bound = int64(size+1) + size + 4
				}
				last := len(requests) - 1
				if requests[0] != requests[last] || requests[0] > 4 {
					t.Errorf("requests per page by token: %v, want the same at the first and the last, at most 4", requests)
				}
				for n, c := range items {
					if c > bound {
						t.Errorf("page %d by token read %d items, want at most %d (every page: %v)", n+1, c, bound, items)
					}
				}
				if items[last] > items[0] {
					t.Errorf("the last page by token read %d items, the first %d", items[last], items[0])
				}
				// The same last page by number passes every member before it.
				want := w.want(urs)
				_, i0 := counter.snapshot()
				_, err := w.at(t, s, 1, (len(want)-1)/size*size, size)
				must(t, err)
				_, i1 := counter.snapshot()
				if members == 460 && (i1-i0) < 4*items[last] {
					t.Errorf("the last page by number read %d items, by token %d: want the token's far fewer", i1-i0, items[last])
				}
				t.Logf("%d pages by token, items each %v; the last page by number: %d items", len(items), items, i1-i0)
			})
		}
	}
}

// TestMembersWalkGoesOnFromAnyPageNumber: a page by number, near the
// start or deep (past the keys-only skip's threshold), gives the token of
// the page after it: following the tokens from there lists the rest of
// the walk, each once, in order.
func TestMembersWalkGoesOnFromAnyPageNumber(t *testing.T) {
	s, _, _ := itemCountingStore(t)
	urs := seedMembers(t, s, 1, 1, 330, true)
	for _, w := range memberWalks {
		want := w.want(urs)
		for _, number := range []int{1, 13, 19} { // 19: offset 133, past the skip threshold, some 8 before the non-guests' end
			const size = 7
			t.Run(fmt.Sprintf("%s from page %d", w.name, number), func(t *testing.T) {
				page, err := w.at(t, s, 1, number*size, size)
				must(t, err)
				got := memberIDs(page.Items)
				for n := 0; page.Next != ""; n++ {
					if n > len(want) {
						t.Fatal("the walk does not end")
					}
					page, err = w.after(t, s, 1, page.Next, size)
					must(t, err)
					got = append(got, memberIDs(page.Items)...)
				}
				if from := min(number*size, len(want)); !slices.Equal(got, want[from:]) {
					t.Errorf("walked %v,\nwant %v", got, want[from:])
				}
			})
		}
	}
}

// TestMembersWalkRefusesOtherTokens: a walk accepts only its own tokens:
// one of another role, of the other side, of the other direction, of
// every member for a side (and the other way round), and mangled or
// forged ones are Invalid, before any read.
func TestMembersWalkRefusesOtherTokens(t *testing.T) {
	s, counter, _ := itemCountingStore(t)
	seedMembers(t, s, 1, 1, 30, true)
	seedMembers(t, s, 2, 101, 30, true)
	tokenOf := func(roleID int64, w memberWalk) string {
		page, err := w.first(t, s, roleID, 5)
		must(t, err)
		if page.Next == "" {
			t.Fatalf("role %d %s: no next page", roleID, w.name)
		}
		return page.Next
	}
	guestsAsc, guestsDesc, nonGuests, all := memberWalks[0], memberWalks[1], memberWalks[2], memberWalks[4]
	own := tokenOf(1, guestsAsc)
	raw, err := base64.RawURLEncoding.DecodeString(own)
	must(t, err)
	forged := func(from, to string) string {
		if !strings.Contains(string(raw), from) {
			t.Fatalf("token %s has no %q", raw, from)
		}
		return base64.RawURLEncoding.EncodeToString([]byte(strings.Replace(string(raw), from, to, 1)))
	}
	encoded := func(s string) string { return base64.RawURLEncoding.EncodeToString([]byte(s)) }
	// The walk's own token, and one forged to a position of the role's
	// own index, are accepted: a position is no permission.
	if _, err := guestsAsc.after(t, s, 1, encoded(`{"role":1,"walk":"guests","after":["UR#G#person 001#5",""]}`), 5); err != nil {
		t.Fatalf("a position in the role's own index: %v", err)
	}
	if _, err := guestsAsc.after(t, s, 1, own, 5); err != nil {
		t.Fatalf("own token: %v", err)
	}
	for _, tc := range []struct {
		name  string
		walk  memberWalk
		token string
	}{
		{"another role's token", guestsAsc, tokenOf(2, guestsAsc)},
		{"the other side's token", guestsAsc, tokenOf(1, nonGuests)},
		{"the other direction's token", guestsAsc, tokenOf(1, guestsDesc)},
		{"a side's token for every member", all, own},
		{"every member's token for a side", guestsAsc, tokenOf(1, all)},
		{"not base64", guestsAsc, "not a token!"},
		{"truncated", guestsAsc, own[:len(own)/2]},
		{"base64 of no JSON", guestsAsc, encoded("role=1")},
		{"an unknown field", guestsAsc, forged(`{"role":1`, `{"x":1,"role":1`)},
		{"forged role", guestsAsc, forged(`"role":1`, `"role":2`)},
		{"a position without a user id", guestsAsc, encoded(`{"role":1,"walk":"guests","after":["UR#G#person 001#x",""]}`)},
		{"a position without a name", guestsAsc, encoded(`{"role":1,"walk":"guests","after":["UR#G#5",""]}`)},
		{"a position of another class", guestsAsc, encoded(`{"role":1,"walk":"guests","after":["UR#N#person 001#5",""]}`)},
		{"one position too many", guestsAsc, encoded(`{"role":1,"walk":"guests","after":["UR#G#person 001#5","","UR#B#person 002#6"]}`)},
		{"no position", guestsAsc, encoded(`{"role":1,"walk":"guests","after":["",""]}`)},
		{"an overlong position", guestsAsc, encoded(`{"role":1,"walk":"guests","after":["UR#G#` + strings.Repeat("a", 1100) + `#5",""]}`)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r0, _ := counter.snapshot()
			page, err := tc.walk.after(t, s, 1, tc.token, 5)
			r1, _ := counter.snapshot()
			if domain.KindOf(err) != domain.KindInvalid {
				t.Errorf("%s: %v, want Invalid", tc.name, err)
			}
			if len(page.Items) != 0 || page.Next != "" || page.Total != 0 {
				t.Errorf("%s: answered a page: %+v", tc.name, page)
			}
			if r1 != r0 {
				t.Errorf("%s: %d requests before refusing, want none", tc.name, r1-r0)
			}
		})
	}
}

// TestMembersWalkGoesOnPastRemovedMembers: a walk goes on from its token
// when the member it names has been removed since, and a member removed
// before the walk reaches it is not listed; every other member once, in
// order.
func TestMembersWalkGoesOnPastRemovedMembers(t *testing.T) {
	s, _, _ := itemCountingStore(t)
	for i, w := range memberWalks {
		t.Run(w.name, func(t *testing.T) {
			roleID := int64(i + 1)
			urs := seedMembers(t, s, roleID, roleID*100, 30, true)
			want := w.want(urs)
			const size = 5
			page, err := w.first(t, s, roleID, size)
			must(t, err)
			got := memberIDs(page.Items)
			var gone []domain.UserRole
			for _, uid := range []int64{got[len(got)-1], want[size]} {
				ur, err := s.GetUserRole(ctx(t), uid, roleID)
				must(t, err)
				gone = append(gone, ur)
			}
			must(t, s.DeleteUserRoles(ctx(t), gone, nil, nil))
			want = slices.Delete(want, size, size+1)
			for n := 0; page.Next != ""; n++ {
				if n > len(want) {
					t.Fatal("the walk does not end")
				}
				page, err = w.after(t, s, roleID, page.Next, size)
				must(t, err)
				got = append(got, memberIDs(page.Items)...)
			}
			if !slices.Equal(got, want) {
				t.Errorf("walked %v,\nwant %v", got, want)
			}
		})
	}
}
