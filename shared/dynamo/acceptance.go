package dynamo

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"

	"github.com/edu-invite/invite/shared/domain"
)

// SaveAcceptance applies an acceptance in one transaction: the invitation
// (only while it is still OPEN at the version read; none when its ID is 0,
// as for user-role provisioning), the user (new and
// unique by sub, or version-checked), the memberships, audit entries and
// deliveries. Nothing is written unless everything is. The invitation is the
// first write, so when it was accepted concurrently that is the reported
// reason even if other conditions failed too.
func (s *Store) SaveAcceptance(ctx context.Context, a domain.Acceptance) error {
	t, relist, err := s.acceptanceTxn(ctx, a)
	if err != nil {
		return err
	}
	if err := t.commit(ctx); err != nil {
		return err
	}
	return s.relistLater(ctx, relist, a.User)
}

// AcceptanceWrites says how many writes SaveAcceptance would make of a in
// its one transaction, and how many one transaction may hold, writing
// nothing. It builds the same transaction SaveAcceptance commits, so the
// two cannot disagree: an invitation can be refused when it is made rather
// than fail when its guest accepts it.
func (s *Store) AcceptanceWrites(ctx context.Context, a domain.Acceptance) (writes, limit int, err error) {
	t, _, err := s.acceptanceTxn(ctx, a)
	if err != nil {
		return 0, maxTransactionItems, err
	}
	if t.err != nil {
		return 0, maxTransactionItems, t.err
	}
	return len(t.items), maxTransactionItems, nil
}

// acceptanceTxn builds the transaction of an acceptance, reading what its
// derived items need, and returns it with the memberships to relist after
// it commits (those the transaction had no room for).
func (s *Store) acceptanceTxn(ctx context.Context, a domain.Acceptance) (*txn, []domain.UserRole, error) {
	inv, u := a.Invitation, a.User
	st := newProjectionState()
	var stored domain.User
	var changes []change
	if a.NewUser {
		if u.Sub == "" {
			return nil, nil, domain.Invalidf("a new user needs a sub")
		}
		changes = append(changes, createdUser(u))
	} else {
		var summary userRolesState
		var err error
		if stored, summary, err = s.storedUserWithRoles(ctx, u.ID); err != nil {
			return nil, nil, err
		}
		st.summaries[u.ID] = summary
		changes = append(changes, changedUser(stored, u))
	}
	if inv.ID != 0 { // no invitation: memberships provisioned directly (U8)
		changes = append(changes, changedInvitation(inv)) // its links show it accepted
	}
	for _, ur := range a.NewUserRoles {
		changes = append(changes, addedMembership(ur, u))
	}
	for _, ur := range a.UpdatedUserRoles {
		changes = append(changes, changedMembership(ur, u))
	}
	st, err := s.readProjectionState(ctx, st, changes)
	if err != nil {
		return nil, nil, err
	}
	p := projectChanges(st, changes...)

	t := s.newTxn()
	if inv.ID != 0 {
		stillOpen := versionIs(inv.Version).And(expression.Name("status").Equal(expression.Value(string(domain.InvitationOpen))))
		t.putIf(newInvitationRecord(inv, inv.Version+1), stillOpen, s.acceptedInvitationFailure(inv))
	}
	if a.NewUser {
		userItem, err := newUserItem(u, p.firstRoles[u.ID])
		if err != nil {
			return nil, nil, err
		}
		t.putNew(userItem, always(domain.Conflictf("user %d already exists", u.ID)))
		t.putNew(newUserSubRecord(u), always(domain.Conflictf("a user with sub %q already exists", u.Sub)))
	} else {
		t.updateUserItem(u, p.takeSummary(u.ID))
	}
	for _, roleID := range newRoleIDs(a.NewUserRoles) {
		t.roleStillIn(roleID, st.roleOrgs[roleID])
	}
	relist := t.apply(p, len(a.Audit)+len(a.Deliveries))
	t.putAudit(a.Audit)
	t.putDeliveries(a.Deliveries)
	return t, relist, nil
}

// acceptedInvitationFailure explains why an invitation could not be
// accepted. An invitation that is no longer open is Gone (410): it was used
// or withdrawn, and retrying cannot help. One that is open but at another
// version changed under the caller, who may read it again and retry.
func (s *Store) acceptedInvitationFailure(inv domain.Invitation) failure {
	return func(ctx context.Context) error {
		stored, err := s.GetInvitation(ctx, inv.ID)
		switch {
		case err != nil:
			return err
		case stored.Status == domain.InvitationAccepted:
			// 409, as when the accepted invitation is read first: every
			// loser of concurrent accepts gets the same answer.
			return domain.Conflictf("invitation %d has already been accepted", inv.ID)
		case stored.Status != domain.InvitationOpen:
			return domain.Gonef("invitation %d is no longer open", inv.ID)
		}
		return domain.ErrVersionConflict
	}
}
