package provisioner

import (
	"context"
	"sync"

	"github.com/edu-invite/invite/shared/domain"
)

// GuardStates keeps each SP's rate window and circuit breaker where every
// provisioner instance sees them (the table: *dynamo.Store), so that an SP's
// rate and an open breaker hold across all instances, not per instance.
type GuardStates interface {
	// GetSPGuard reads an SP's state, consistently; the zero state
	// (Version 0) when it has none.
	GetSPGuard(ctx context.Context, spID string) (domain.SPGuardState, error)
	// SaveSPGuard writes st if the stored state is still version
	// st.Version, and returns it as stored (next version). When another
	// writer came first it returns the current state and saved false.
	SaveSPGuard(ctx context.Context, st domain.SPGuardState) (current domain.SPGuardState, saved bool, err error)
	// TakeSPCalls adds n calls to window w of an SP whose breaker is
	// closed and whose failures are at most maxFailures, in one atomic
	// step, whatever the version: in the window as stored, or starting it
	// when the stored one is older, as long as taken stays within limit.
	// It returns the state as stored after it, or, when it did not apply,
	// the current state and taken false.
	TakeSPCalls(ctx context.Context, spID string, w int64, n, limit, maxFailures int) (current domain.SPGuardState, taken bool, err error)
}

// memoryGuardStates keeps the states in this process only: the guards of
// a Targets without GuardStates, and of tests.
type memoryGuardStates struct {
	mu     sync.Mutex
	states map[string]domain.SPGuardState
}

func (m *memoryGuardStates) GetSPGuard(_ context.Context, spID string) (domain.SPGuardState, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if st, ok := m.states[spID]; ok {
		return st, nil
	}
	return domain.SPGuardState{SPID: spID}, nil
}

func (m *memoryGuardStates) SaveSPGuard(_ context.Context, st domain.SPGuardState) (domain.SPGuardState, bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.states == nil {
		m.states = map[string]domain.SPGuardState{}
	}
	cur, ok := m.states[st.SPID]
	if !ok {
		cur = domain.SPGuardState{SPID: st.SPID}
	}
	if cur.Version != st.Version {
		return cur, false, nil
	}
	st.Version++
	m.states[st.SPID] = st
	return st, true, nil
}

func (m *memoryGuardStates) TakeSPCalls(_ context.Context, spID string, w int64, n, limit, maxFailures int) (domain.SPGuardState, bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.states == nil {
		m.states = map[string]domain.SPGuardState{}
	}
	cur, ok := m.states[spID]
	if !ok {
		cur = domain.SPGuardState{SPID: spID}
	}
	if cur.Open() || cur.Failures > maxFailures || cur.Window > w {
		return cur, false, nil
	}
	if cur.Window < w {
		cur.Window, cur.Taken = w, 0
	}
	if cur.Taken+n > limit {
		return m.states[spID], false, nil
	}
	cur.Taken += n
	cur.Version++
	m.states[spID] = cur
	return cur, true, nil
}
