package stack

import (
	"fmt"
	"net/http"
	"testing"
	"time"
)

// The consumer is killed again and again while it delivers to a slow SP;
// the SPs still end exactly as the service says: every user once, in the
// group, nothing duplicated.
func TestConsumerKilledMidBatch(t *testing.T) {
	slow := func(h http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			time.Sleep(40 * time.Millisecond)
			h.ServeHTTP(w, r)
		})
	}
	f := newLifecycleFixtureWith(t, slow)
	roleA := f.createRole("Wiki editors", "app-a", 30)
	roleB := f.createRole("Lab members", "app-b", 30)
	const guests = 6
	for i := 0; i < guests; i++ {
		f.inviteAndAccept(fmt.Sprintf("guest%d@example.org", i), "en", "", roleA, roleB)
	}
	for kills := 0; kills < 4; kills++ {
		time.Sleep(150 * time.Millisecond)
		f.s.RestartConsumer()
	}
	eventually(t, "every guest in both groups", func() bool {
		return len(f.spA.Users()) == guests && len(f.spB.Users()) == guests && members(f.spA) == guests && members(f.spB) == guests
	})
	for _, sp := range []*struct {
		name  string
		users int
	}{{"A", len(f.spA.Users())}, {"B", len(f.spB.Users())}} {
		if sp.users != guests {
			t.Errorf("SP %s has %d users, want %d", sp.name, sp.users, guests)
		}
	}
	assertNoDuplicateUsers(t, f.spA.Users())
	assertNoDuplicateUsers(t, f.spB.Users())
	if len(f.spA.Groups()) != 1 || len(f.spB.Groups()) != 1 {
		t.Fatalf("groups: A %d, B %d, want one each", len(f.spA.Groups()), len(f.spB.Groups()))
	}
}
