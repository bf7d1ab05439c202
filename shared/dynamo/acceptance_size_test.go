package dynamo_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/edu-invite/invite/shared/domain"
	"github.com/edu-invite/invite/shared/dynamo"
)

// AcceptanceWrites counts the transaction SaveAcceptance commits, writing
// nothing: it grows with the roles, an acceptance it counts within the
// limit is saved, and one over it is refused whole as too large.
func TestAcceptanceWritesAgreesWithSaveAcceptance(t *testing.T) {
	s := newStore(t)
	const roles = 16
	for r := int64(1); r <= roles; r++ {
		must(t, s.CreateRole(ctx(t), role(r, fmt.Sprint("Role ", r)), nil))
	}
	acceptanceOf := func(userID int64, n int) domain.Acceptance {
		u := user(userID, "sub-"+id(userID))
		a := domain.Acceptance{User: u, NewUser: true}
		for r := int64(1); r <= int64(n); r++ {
			a.NewUserRoles = append(a.NewUserRoles, membership(userID*100+r, userID, r))
			a.Audit = append(a.Audit, domain.AuditEntry{ID: userID*100 + r, UserID: userID, RoleID: r, Action: domain.AuditAdd,
				Authority: domain.Guest, CreatedAt: testNow})
			for _, sp := range []string{"sp-a", "sp-b"} {
				a.Deliveries = append(a.Deliveries, domain.Delivery{ID: fmt.Sprintf("d-%d-%d-%s", userID, r, sp), SPID: sp,
					Kind: domain.DeliverMemberAdd, UserID: userID, RoleID: r})
			}
		}
		return a
	}
	previous, sawOver, sawFit := 0, false, false
	for n := 1; n <= roles; n++ {
		userID := int64(10 + n)
		a := acceptanceOf(userID, n)
		writes, limit, err := s.AcceptanceWrites(ctx(t), a)
		must(t, err)
		if writes <= previous {
			t.Errorf("%d roles: %d writes, not more than %d for one role fewer", n, writes, previous)
		}
		previous = writes
		mustNotFound(t, func() error { _, err := s.GetUserBySub(ctx(t), a.User.Sub); return err }())
		err = s.SaveAcceptance(ctx(t), a)
		if writes <= limit {
			sawFit = true
			must(t, err)
			continue
		}
		sawOver = true
		if !errors.Is(err, dynamo.ErrTransactionTooLarge) {
			t.Fatalf("%d roles, %d writes of %d: err %v, want too large", n, writes, limit, err)
		}
		mustNotFound(t, func() error { _, err := s.GetUserBySub(ctx(t), a.User.Sub); return err }())
	}
	if !sawFit || !sawOver {
		t.Fatalf("sizes up to %d writes saw fit %v, over %v: the test does not reach both sides", previous, sawFit, sawOver)
	}
}
