package dynamo_test

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/edu-invite/invite/shared/domain"
	"github.com/edu-invite/invite/shared/dynamo"
	"github.com/edu-invite/invite/shared/dynamo/dynamotest"
)

// runAtOnce runs n functions from n goroutines released together.
func runAtOnce(n int, f func(i int)) {
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			f(i)
		}()
	}
	close(start)
	wg.Wait()
}

// Concurrent reservations of one inviter's day never pass the limit
// together, every reservation that fits is granted, and the stored count
// (INVQUOTA#) is the sum of those granted.
func TestConcurrentInvitationReservationsKeepTheDailyCount(t *testing.T) {
	for _, tc := range []struct{ workers, n, limit int }{
		{20, 1, 10},
		{12, 3, 10},
		{16, 2, 7},
	} {
		t.Run(fmt.Sprintf("%d×%d within %d", tc.workers, tc.n, tc.limit), func(t *testing.T) {
			client, table := dynamotest.NewClient(t)
			s := dynamo.New(client, table, func() time.Time { return testNow })
			var mu sync.Mutex
			granted := 0
			runAtOnce(tc.workers, func(int) {
				err := s.ReserveInvitations(ctx(t), "user-7", "2026-11-28", tc.n, tc.limit)
				switch {
				case err == nil:
					mu.Lock()
					granted++
					mu.Unlock()
				case domain.KindOf(err) != domain.KindLimit:
					t.Errorf("a reservation: %v", err)
				}
			})
			if want := tc.limit / tc.n; granted != want {
				t.Errorf("%d reservations of %d granted, want %d (all that fit in %d)", granted, tc.n, want, tc.limit)
			}
			sum := sha256.Sum256([]byte("user-7"))
			it := rawItem(t, client, table, "INVQUOTA#"+hex.EncodeToString(sum[:16]), "DAY#2026-11-28")
			if got, _ := it["count"].(*types.AttributeValueMemberN); got == nil || got.Value != fmt.Sprint(granted*tc.n) {
				t.Errorf("stored count %+v, want %d", it["count"], granted*tc.n)
			}
		})
	}
}

// Sessions signed in concurrently, several of one person, are all listed
// under the person (PERSONSESSIONS#) and all ended by the person's logout;
// another person's and anonymous sessions stay.
func TestConcurrentSignInsAreAllEndedByTheLogout(t *testing.T) {
	s := newStore(t)
	const each = 12
	subs := []string{"alice", "bob", ""}
	runAtOnce(each*len(subs), func(i int) {
		sub := subs[i%len(subs)]
		sess := domain.Session{IDDigest: fmt.Sprint("d", i), CreatedAt: testNow, LastSeen: testNow, ExpiresAt: testNow.Add(time.Hour)}
		if err := s.PutSession(ctx(t), sess); err != nil { // anonymous first, as the sign-in starts
			t.Error(err)
			return
		}
		if sub != "" {
			sess.Person = &domain.SignedInPerson{Sub: sub}
			sess.LastSeen = testNow.Add(time.Minute)
			if err := s.PutSession(ctx(t), sess); err != nil {
				t.Error(err)
			}
		}
	})
	n, err := s.EndSessionsOfPerson(ctx(t), "alice")
	if err != nil || n != each {
		t.Fatalf("alice's logout ended %d sessions, %v; want %d", n, err, each)
	}
	for i := range each * len(subs) {
		_, err := s.GetSession(ctx(t), fmt.Sprint("d", i))
		if alive, want := err == nil, subs[i%len(subs)] != "alice"; alive != want {
			t.Errorf("session d%d of %q exists = %v, want %v (%v)", i, subs[i%len(subs)], alive, want, err)
		}
	}
	if n, err := s.EndSessionsOfPerson(ctx(t), "bob"); err != nil || n != each {
		t.Errorf("bob's logout ended %d sessions, %v; want %d", n, err, each)
	}
}

// Concurrent deletions of one role and acceptances into it: one deletion
// wins (the others find it changed or gone), its deletion marker holds the
// role, and an acceptance either lands before it, leaving a membership the
// deletion's removals take, or is refused; once the members are removed
// and the deletion is finished, no listing item, member count or marker of
// the role is left.
func TestConcurrentDeletionsOfOneRoleLeaveOneMarker(t *testing.T) {
	client, table := dynamotest.NewClient(t)
	raw := rawTable{Client: client, table: table}
	s := dynamo.New(client, table, func() time.Time { return testNow })
	must(t, s.CreateRole(ctx(t), role(1, "Doomed"), nil))
	must(t, s.CreateRole(ctx(t), role(2, "Kept"), nil))
	const deleters, acceptors = 4, 8
	var mu sync.Mutex
	deletions, accepted := 0, map[int64]bool{}
	runAtOnce(deleters+acceptors, func(i int) {
		if i < deleters {
			r, err := s.GetRole(ctx(t), 1)
			if err == nil {
				err = s.DeleteRole(ctx(t), r, nil)
			}
			switch {
			case err == nil:
				mu.Lock()
				deletions++
				mu.Unlock()
			case domain.KindOf(err) != domain.KindConflict && !domain.IsNotFound(err):
				t.Errorf("a deletion: %v", err)
			}
			return
		}
		uid := int64(100 + i)
		err := s.SaveAcceptance(ctx(t), domain.Acceptance{User: user(uid, fmt.Sprint("sub-", uid)), NewUser: true,
			NewUserRoles: []domain.UserRole{membership(1000+uid, uid, 1), membership(2000+uid, uid, 2)}})
		switch {
		case err == nil:
			mu.Lock()
			accepted[uid] = true
			mu.Unlock()
		case domain.KindOf(err) != domain.KindConflict && !domain.IsNotFound(err):
			t.Errorf("an acceptance: %v", err)
		}
	})
	if deletions != 1 {
		t.Fatalf("%d deletions succeeded, want one", deletions)
	}
	marker, err := s.GetRoleDeletion(ctx(t), 1)
	if err != nil || marker.Name != "Doomed" {
		t.Fatalf("deletion marker %+v, %v", marker, err)
	}
	for uid := range accepted {
		ur, err := s.GetUserRole(ctx(t), uid, 1)
		if domain.IsNotFound(err) {
			continue
		}
		must(t, err)
		u, err := s.GetUser(ctx(t), uid)
		must(t, err)
		must(t, s.ApplyRemoval(ctx(t), domain.Removal{UserRoles: []domain.UserRole{ur}, KeepUser: &u}))
	}
	counts, err := s.CountMembersOfRoles(ctx(t), []int64{1, 2})
	must(t, err)
	if counts[1] != 0 || counts[2] != int64(len(accepted)) {
		t.Errorf("member counts %v after the removals, want 0 and %d", counts, len(accepted))
	}
	must(t, s.FinishRoleDeletion(ctx(t), 1))
	if _, err := s.GetRoleDeletion(ctx(t), 1); !domain.IsNotFound(err) {
		t.Errorf("the marker after the deletion finished: %v", err)
	}
	checkRoleListingsFollowRoles(t, s, tableItems(t, raw))
	checkCountersAgainstPrimaryItems(t, raw, 0)
}

// Concurrent membership changes of one role that move members between its
// sides (guest, other, both), with acceptances into it and removals from
// it at the same time, all on the same counter shards: every write that
// succeeds moves the role's counters and the sides' exactly, so that they
// equal a count of the memberships.
func TestConcurrentSideChangesKeepTheSideCounters(t *testing.T) {
	client, table := dynamotest.NewClient(t)
	raw := rawTable{Client: client, table: table}
	s := dynamo.New(client, table, func() time.Time { return testNow })
	must(t, s.CreateRole(ctx(t), role(1, "Sides"), nil))
	must(t, s.CreateRole(ctx(t), role(2, "Elsewhere"), nil))
	const members = 8
	for i := range members {
		uid := int64(4 * (i + 1)) // all in shard 0
		must(t, s.SaveAcceptance(ctx(t), domain.Acceptance{User: user(uid, fmt.Sprint("sub-", uid)), NewUser: true,
			NewUserRoles: []domain.UserRole{membership(100+uid, uid, 1), membership(200+uid, uid, 2)}}))
	}
	sides := []struct {
		authority domain.Authority
		guestRole bool
	}{{domain.Guest, false}, {domain.Inviter, false}, {domain.Manager, true}, {domain.Inviter, true}}
	var mu sync.Mutex
	changed, lost := 0, 0
	count := func(err error) {
		mu.Lock()
		defer mu.Unlock()
		switch {
		case err == nil:
			changed++
		case domain.KindOf(err) == domain.KindConflict || domain.IsNotFound(err):
			lost++
		default:
			t.Errorf("a write: %v", err)
		}
	}
	runAtOnce(3*members, func(i int) {
		uid := int64(4 * (i%members + 1))
		switch i / members {
		case 0: // moves between the sides
			for k := range 5 {
				ur, err := s.GetUserRole(ctx(t), uid, 1)
				if err != nil {
					count(err)
					return
				}
				side := sides[(i+k)%len(sides)]
				ur.Authority, ur.GuestRoleIncluded = side.authority, side.guestRole
				count(s.UpdateUserRole(ctx(t), ur, nil, nil))
			}
		case 1: // new members of the same shard
			nu := int64(1000 + 4*i)
			ur := membership(5000+nu, nu, 1)
			ur.Authority, ur.GuestRoleIncluded = sides[i%len(sides)].authority, sides[i%len(sides)].guestRole
			count(s.SaveAcceptance(ctx(t), domain.Acceptance{User: user(nu, fmt.Sprint("sub-", nu)), NewUser: true,
				NewUserRoles: []domain.UserRole{ur}}))
		case 2: // half the original members leave the role (they keep the other)
			if i%2 == 1 {
				return
			}
			u, err := s.GetUser(ctx(t), uid)
			if err != nil {
				count(err)
				return
			}
			ur, err := s.GetUserRole(ctx(t), uid, 1)
			if err != nil {
				count(err)
				return
			}
			count(s.ApplyRemoval(ctx(t), domain.Removal{UserRoles: []domain.UserRole{ur}, KeepUser: &u}))
		}
	})
	t.Logf("%d writes, %d lost to a concurrent one", changed, lost)
	if changed < 2*members {
		t.Errorf("only %d writes succeeded: the test exercised little", changed)
	}
	checkCountersAgainstPrimaryItems(t, raw, 0)
	res := repairAll(t, s, 10)
	if res.RoleCountsRepaired != 0 || res.MembersIndexesBuilt != 0 {
		t.Errorf("the index repair repaired something: %+v", res)
	}
}
