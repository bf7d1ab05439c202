package dynamo

import (
	"context"

	"github.com/edu-invite/invite/shared/domain"
)

// A repaired date has copies: a membership's end date is in its user's
// role summary, an invitation's dates in its InvitationRole items. The
// repair writes them in the same transaction as the item, so that no copy
// keeps the bad date.

// rewriteRepairedMembership writes the repaired membership, at the
// version read, and its entry in the user's role summary (when the summary
// has one): the projection of a changed membership.
func (s *Store) rewriteRepairedMembership(ctx context.Context, ur domain.UserRole) error {
	changes := []change{changedMembership(ur, domain.User{})}
	st, err := s.readProjectionState(ctx, newProjectionState(), changes)
	if err != nil {
		return err
	}
	t := s.newTxn()
	t.apply(projectChanges(st, changes...), 0)
	return t.commitSkippingGoneUsers(ctx)
}

// rewriteRepairedInvitation writes the repaired invitation and the copy of
// it on each of its InvitationRole items.
func (s *Store) rewriteRepairedInvitation(ctx context.Context, inv domain.Invitation) error {
	t := s.newTxn()
	inv.Version++
	t.put(newInvitationRecord(inv, inv.Version))
	t.applyChanges(changedInvitation(inv))
	return t.commit(ctx)
}
