package service

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/edu-invite/invite/shared/domain"
)

// expiryRun is one run of RemoveExpired: what it did so far and when it
// stops starting work.
type expiryRun struct {
	s   *Service
	now time.Time
	// stopAt is the time after which the run starts no user's removal
	// (bounded: there is one); limit the memberships it takes on (0: any).
	stopAt  time.Time
	bounded bool
	limit   int

	mu       sync.Mutex
	res      ExpiryResult
	mails    []domain.MailDelivery
	failures []error
	planned  int  // memberships taken on
	stopped  bool // stopped before the work was done
	roles    map[int64]domain.Role
}

// rolesOf reads the roles of memberships, each role once a run.
func (run *expiryRun) rolesOf(ctx context.Context, urs []domain.UserRole) (map[int64]domain.Role, error) {
	var missing []domain.UserRole
	run.mu.Lock()
	for _, ur := range urs {
		if _, ok := run.roles[ur.RoleID]; !ok {
			missing = append(missing, ur)
		}
	}
	run.mu.Unlock()
	read, err := run.s.rolesOf(ctx, missing)
	if err != nil {
		return nil, err
	}
	run.mu.Lock()
	defer run.mu.Unlock()
	if run.roles == nil {
		run.roles = map[int64]domain.Role{}
	}
	for id, r := range read {
		run.roles[id] = r
	}
	out := make(map[int64]domain.Role, len(urs))
	for _, ur := range urs {
		if r, ok := run.roles[ur.RoleID]; ok {
			out[ur.RoleID] = r
		}
	}
	return out, nil
}

// full reports whether the run may start no more work, and notes it.
func (run *expiryRun) full(ctx context.Context) bool {
	run.mu.Lock()
	defer run.mu.Unlock()
	if ctx.Err() != nil || (run.bounded && !time.Now().Before(run.stopAt)) || (run.limit > 0 && run.planned >= run.limit) {
		run.stopped = true
	}
	return run.stopped
}

// expiryStep is what one user's expiry needs: its removal in one or more
// transactions.
type expiryStep struct {
	userID int64
	plan   []plannedRemoval
}

// removePage removes the expired memberships of a page and of their
// users: it reads the users (one BatchGetItem) and the roles, plans each
// user's removal (ExpiryWorkers users at once; each reads the user's
// memberships and SP links), then applies the removals of users
// that fit in one transaction together, as many users per transaction as
// DynamoDB's 100 writes allow, so that a cohort costs a few requests per
// membership rather than a transaction, an id reservation and a status
// update per delivery each. A transaction of several users that fails
// (one of them changed meanwhile) is applied again one user at a time, so
// that one user cannot hold up the others. It reports whether it removed
// anything.
func (run *expiryRun) removePage(ctx context.Context, expired []domain.UserRole) bool {
	byUser := map[int64]bool{}
	var users []int64
	for _, ur := range expired {
		if !byUser[ur.UserID] {
			byUser[ur.UserID] = true
			users = append(users, ur.UserID)
		}
	}
	var mu sync.Mutex
	var steps []expiryStep
	read, err := run.s.Store.GetUsers(ctx, users)
	if err == nil {
		// The page's roles at once, not a read by each worker.
		_, err = run.rolesOf(ctx, expired)
	}
	if err != nil {
		run.mu.Lock()
		run.failures = append(run.failures, err)
		run.mu.Unlock()
		return false
	}
	run.parallel(len(users), func(i int) {
		if run.full(ctx) {
			return
		}
		user, ok := read[users[i]]
		if !ok {
			return // gone meanwhile: nothing of it to remove here, as GetUser would say
		}
		plan, err := run.s.planExpiryOfUser(ctx, user, run.now, run.rolesOf)
		if err != nil {
			run.fail(ctx, users[i], err)
			return
		}
		if len(plan) == 0 {
			return
		}
		n := 0
		for _, p := range plan {
			n += len(p.removal.UserRoles)
		}
		run.mu.Lock()
		if run.limit > 0 && run.planned > 0 && run.planned+n > run.limit {
			// Over the budget: the next run takes this user on.
			run.stopped = true
			run.mu.Unlock()
			return
		}
		run.planned += n
		run.mu.Unlock()
		mu.Lock()
		steps = append(steps, expiryStep{userID: users[i], plan: plan})
		mu.Unlock()
	})
	groups := groupSteps(steps)
	progress := false
	run.parallel(len(groups), func(i int) {
		if run.applyGroup(ctx, groups[i]) {
			mu.Lock()
			progress = true
			mu.Unlock()
		}
	})
	return progress
}

// groupSteps packs the users whose removal is one transaction into groups
// whose writes fit in one, a deleted user's search items counted as a
// typical person's; a user whose removal takes several is a group of its
// own.
func groupSteps(steps []expiryStep) [][]expiryStep {
	var groups [][]expiryStep
	var open []expiryStep
	writes := 0
	for _, st := range steps {
		if len(st.plan) > 1 {
			groups = append(groups, []expiryStep{st})
			continue
		}
		w := st.plan[0].writes
		if st.plan[0].removal.DeleteUser != nil {
			w -= searchItemsBound - typicalSearchItems
		}
		if len(open) > 0 && writes+w > transactionWrites+1 {
			groups = append(groups, open)
			open, writes = nil, 0
		}
		open = append(open, st)
		writes += w
	}
	if len(open) > 0 {
		groups = append(groups, open)
	}
	return groups
}

// applyGroup applies one group; true when it removed something.
func (run *expiryRun) applyGroup(ctx context.Context, group []expiryStep) bool {
	if len(group) > 1 {
		removals := make([]domain.Removal, len(group))
		for i, st := range group {
			removals[i] = st.plan[0].removal
		}
		if err := run.s.applyRemovals(ctx, removals); err == nil {
			for _, st := range group {
				run.done(st.plan[0].removal)
			}
			return true
		}
		// One of them changed or is gone: each on its own, below.
	}
	progress := false
	for _, st := range group {
		for _, step := range st.plan {
			if err := run.s.applyRemoval(ctx, step.removal); err != nil {
				run.fail(ctx, st.userID, err)
				break
			}
			run.done(step.removal)
			progress = progress || len(step.removal.UserRoles) > 0
		}
	}
	return progress
}

// done counts an applied removal.
func (run *expiryRun) done(r domain.Removal) {
	run.mu.Lock()
	defer run.mu.Unlock()
	run.res.UserRoles += len(r.UserRoles)
	if r.DeleteUser != nil {
		run.res.Users++
	}
	run.mails = append(run.mails, r.Mails...)
}

// fail records a user's failed removal, unless another run got there
// first (the user or a membership gone or changed): the next run tries
// that user again.
func (run *expiryRun) fail(ctx context.Context, userID int64, err error) {
	if domain.IsNotFound(err) || err == domain.ErrVersionConflict {
		return
	}
	run.s.log().ErrorContext(ctx, "expiry of a user failed; the next run tries again", "user", userID, "error", err)
	run.mu.Lock()
	run.failures = append(run.failures, fmt.Errorf("user %d: %w", userID, err))
	run.mu.Unlock()
}

// parallel calls f(0..n-1) on ExpiryWorkers goroutines.
func (run *expiryRun) parallel(n int, f func(i int)) {
	work := make(chan int)
	var wg sync.WaitGroup
	for range min(run.s.expiryWorkers(), max(n, 1)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range work {
				f(i)
			}
		}()
	}
	for i := range n {
		work <- i
	}
	close(work)
	wg.Wait()
}

// applyRemovals applies the single-transaction removals of several users
// in one transaction: their audit entries numbered with one reservation,
// their deliveries queued and marked together.
func (s *Service) applyRemovals(ctx context.Context, removals []domain.Removal) error {
	n := 0
	for _, r := range removals {
		n += len(r.Audit)
	}
	if n > 0 {
		first, err := s.Store.NextIDs(ctx, "audit", n)
		if err != nil {
			return err
		}
		for _, r := range removals {
			for i := range r.Audit {
				r.Audit[i].ID = first
				first++
			}
		}
	}
	if err := s.Store.ApplyRemovals(ctx, removals); err != nil {
		return err
	}
	var deliveries []domain.Delivery
	for _, r := range removals {
		deliveries = append(deliveries, r.Deliveries...)
	}
	s.dispatch(ctx, deliveries)
	return nil
}
