package scimsp

import (
	"math/rand/v2"
	"net/http"
	"sync"
)

// Unreliable are behaviours of SPs in the field that the service must
// survive, for tests: each is off in the zero value.
type Unreliable struct {
	// PatchAddRepeats makes a PATCH add of a member already in the group add
	// it again ([frank, gina, gina]), as SPs do whose PATCH add is not
	// idempotent: a blind retry of an add duplicates the member.
	PatchAddRepeats bool
	// LoseAnswers is the share (0 to 1) of writes (POST, PUT, PATCH,
	// DELETE) whose change is made but whose answer is lost: the client
	// gets 504 and cannot tell whether anything happened.
	LoseAnswers float64
	// Seed seeds the choice of lost answers, so that a run can be repeated
	// (as far as the order of concurrent requests allows).
	Seed uint64
	// CaseExactFilters compares every filter value case-exactly, userName
	// too (RFC 7643 says it is case-insensitive): a look-up by a userName
	// that differs in case finds nothing, while uniqueness still refuses it.
	CaseExactFilters bool
}

// lossDice decides which answers are lost.
type lossDice struct {
	mu    sync.Mutex
	rnd   *rand.Rand
	share float64
}

func newLossDice(u Unreliable) lossDice {
	return lossDice{rnd: rand.New(rand.NewPCG(u.Seed, u.Seed^0x9e3779b97f4a7c15)), share: u.LoseAnswers}
}

// lose reports whether this answer is lost.
func (d *lossDice) lose() bool {
	if d.share <= 0 {
		return false
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.rnd.Float64() < d.share
}

// lostAnswer takes a response that never reaches the client.
type lostAnswer struct{ header http.Header }

func (l *lostAnswer) Header() http.Header         { return l.header }
func (l *lostAnswer) Write(b []byte) (int, error) { return len(b), nil }
func (l *lostAnswer) WriteHeader(int)             {}
