package dynamo_test

import (
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/edu-invite/invite/shared/domain"
)

func TestSPGuardStateIsSavedOnlyOverTheVersionItCameFrom(t *testing.T) {
	s := newStore(t)
	if st, err := s.GetSPGuard(ctx(t), "sp-1"); err != nil || st.Version != 0 || st.SPID != "sp-1" {
		t.Fatalf("state of a new SP = %+v, %v; want version 0", st, err)
	}
	open := domain.SPGuardState{SPID: "sp-1", Window: 42, Taken: 3, Failures: 5,
		OpenUntil: testNow.Add(10 * time.Second).Truncate(time.Millisecond), Cooldown: 10 * time.Second,
		ProbeUntil: testNow.Add(time.Minute).Truncate(time.Millisecond)}
	saved, ok, err := s.SaveSPGuard(ctx(t), open)
	if err != nil || !ok || saved.Version != 1 {
		t.Fatalf("first save: %+v, %v, %v", saved, ok, err)
	}
	// A second writer that computed from version 0 too loses, and gets the
	// stored state to compute again from.
	stale := domain.SPGuardState{SPID: "sp-1", Window: 43, Taken: 1}
	current, ok, err := s.SaveSPGuard(ctx(t), stale)
	if err != nil || ok {
		t.Fatalf("a save over a changed version: saved %v, %v", ok, err)
	}
	for name, got := range map[string]domain.SPGuardState{"returned on the conflict": current} {
		want := open
		want.Version = 1
		if !sameGuard(got, want) {
			t.Fatalf("state %s = %+v, want %+v", name, got, want)
		}
	}
	got, err := s.GetSPGuard(ctx(t), "sp-1")
	if err != nil || !sameGuard(got, current) {
		t.Fatalf("read back %+v, %v; want %+v", got, err, current)
	}
	// Closing: zero times are stored as absent and read back as zero.
	closed := got
	closed.Failures, closed.OpenUntil, closed.Cooldown, closed.ProbeUntil = 0, time.Time{}, 0, time.Time{}
	if saved, ok, err := s.SaveSPGuard(ctx(t), closed); err != nil || !ok || saved.Version != 2 {
		t.Fatalf("closing: %+v, %v, %v", saved, ok, err)
	}
	if got, _ := s.GetSPGuard(ctx(t), "sp-1"); got.Troubled() || got.Version != 2 || got.Taken != 3 {
		t.Fatalf("after closing: %+v, want untroubled at version 2 with the window's count", got)
	}
}

func sameGuard(a, b domain.SPGuardState) bool {
	return a.SPID == b.SPID && a.Version == b.Version && a.Window == b.Window && a.Taken == b.Taken &&
		a.Failures == b.Failures && a.OpenUntil.Equal(b.OpenUntil) && a.Cooldown == b.Cooldown && a.ProbeUntil.Equal(b.ProbeUntil)
}

func TestTakeSPCalls(t *testing.T) {
	const limit = 10
	for _, tc := range []struct {
		name      string
		stored    *domain.SPGuardState // nil: none
		window    int64
		n         int
		failures  int // at most, as the caller assumed
		wantTaken bool
		wantState domain.SPGuardState // Window and Taken after
	}{
		{"a new SP starts the window", nil, 100, 3, 0, true, domain.SPGuardState{Window: 100, Taken: 3}},
		{"room in the window", &domain.SPGuardState{Window: 100, Taken: 4}, 100, 3, 0, true, domain.SPGuardState{Window: 100, Taken: 7}},
		{"exactly the room left", &domain.SPGuardState{Window: 100, Taken: 7}, 100, 3, 0, true, domain.SPGuardState{Window: 100, Taken: 10}},
		{"less room than asked", &domain.SPGuardState{Window: 100, Taken: 8}, 100, 3, 0, false, domain.SPGuardState{Window: 100, Taken: 8}},
		{"a full window", &domain.SPGuardState{Window: 100, Taken: 10}, 100, 1, 0, false, domain.SPGuardState{Window: 100, Taken: 10}},
		{"an older window starts again", &domain.SPGuardState{Window: 99, Taken: 10}, 100, 3, 0, true, domain.SPGuardState{Window: 100, Taken: 3}},
		{"a newer window (another clock ahead)", &domain.SPGuardState{Window: 101, Taken: 1}, 100, 1, 0, false, domain.SPGuardState{Window: 101, Taken: 1}},
		{"a failure the caller did not know of", &domain.SPGuardState{Window: 100, Taken: 1, Failures: 1}, 100, 1, 0, false, domain.SPGuardState{Window: 100, Taken: 1}},
		{"a failure the caller knew of", &domain.SPGuardState{Window: 100, Taken: 1, Failures: 1}, 100, 2, 1, true, domain.SPGuardState{Window: 100, Taken: 3}},
		{"a failure, older window", &domain.SPGuardState{Window: 99, Failures: 1}, 100, 1, 0, false, domain.SPGuardState{Window: 99}},
		{"an open breaker", &domain.SPGuardState{Window: 100, OpenUntil: testNow.Add(time.Minute)}, 100, 1, 0, false, domain.SPGuardState{Window: 100}},
		{"a probe under way", &domain.SPGuardState{Window: 99, OpenUntil: testNow.Add(-time.Second), ProbeUntil: testNow.Add(time.Minute)}, 100, 1, 0, false, domain.SPGuardState{Window: 99}},
		{"more than the limit", nil, 100, limit + 1, 0, false, domain.SPGuardState{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := newStore(t)
			version := int64(0)
			if tc.stored != nil {
				st := *tc.stored
				st.SPID = "sp-1"
				saved, ok, err := s.SaveSPGuard(ctx(t), st)
				if err != nil || !ok {
					t.Fatalf("setup: %v %v", ok, err)
				}
				version = saved.Version
			}
			got, taken, err := s.TakeSPCalls(ctx(t), "sp-1", tc.window, tc.n, limit, tc.failures)
			if err != nil || taken != tc.wantTaken {
				t.Fatalf("taken %v, %v; want %v", taken, err, tc.wantTaken)
			}
			if got.Window != tc.wantState.Window || got.Taken != tc.wantState.Taken {
				t.Fatalf("state returned %+v, want window %d taken %d", got, tc.wantState.Window, tc.wantState.Taken)
			}
			stored, _ := s.GetSPGuard(ctx(t), "sp-1")
			if !sameGuard(stored, got) {
				t.Fatalf("stored %+v, returned %+v", stored, got)
			}
			if wantVersion := version + map[bool]int64{true: 1}[taken]; stored.Version != wantVersion {
				t.Fatalf("version %d, want %d", stored.Version, wantVersion)
			}
		})
	}
}

// Concurrent takers of one window get exactly its calls between them: each
// add is conditional on the count, not on a version read before.
func TestConcurrentTakersShareTheWindowExactly(t *testing.T) {
	s := newStore(t)
	const limit, takers = 30, 6
	var granted atomic.Int32
	var wg sync.WaitGroup
	for range takers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				_, taken, err := s.TakeSPCalls(ctx(t), "sp-1", 7, 1, limit, 0)
				if err != nil {
					t.Error(err)
					return
				}
				if !taken {
					return
				}
				granted.Add(1)
			}
		}()
	}
	wg.Wait()
	st, _ := s.GetSPGuard(ctx(t), "sp-1")
	if granted.Load() != limit || st.Taken != limit {
		t.Fatalf("granted %d, stored taken %d; want %d each", granted.Load(), st.Taken, limit)
	}
}
