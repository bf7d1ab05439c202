package dynamo

import (
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/edu-invite/invite/shared/domain"
)

// Adding the projection step's writes (projection.go) to a transaction.

// takeSummary hands the writer of a user item that user's summary change
// (nil: none), so that it joins the user's own write.
func (p *projection) takeSummary(userID int64) *roleSummaryChange {
	c, ok := p.summaries[userID]
	if !ok {
		return nil
	}
	delete(p.summaries, userID)
	return &c
}

// applyChanges adds the projection of changes that need nothing stored
// (an invitation's links, a role's counter and listing items) to t.
func (t *txn) applyChanges(changes ...change) {
	for _, c := range changes {
		if k := c.kind; k != invitationCreated && k != invitationChanged && k != invitationDeleted &&
			k != roleCreated && k != roleChanged && k != roleDeleted {
			t.fail(fmt.Errorf("change %d needs stored state: readProjectionState first", k))
			return
		}
	}
	t.apply(projectChanges(projectionState{}, changes...), 0)
}

// apply adds the projection's writes to t: the derived puts and deletes,
// the counters (one update per item), the role summaries of users t does
// not otherwise write, and as many of the relisted memberships as fit
// with reserve more writes to come; the rest are returned (relistLater).
func (t *txn) apply(p projection, reserve int) []domain.UserRole {
	for _, w := range p.writes {
		var onFail failure
		if w.onFail != nil {
			onFail = w.onFail(t.store)
		}
		switch {
		case w.err != nil:
			t.fail(w.err)
		case w.del != nil:
			t.delete(*w.del, w.cond, onFail)
		case w.cond != nil:
			t.putIf(w.put, *w.cond, onFail)
		default:
			t.put(w.put)
		}
	}
	for _, c := range p.counts {
		t.count(c)
	}
	t.updateRoleSummaries(p.summaries, 0)
	var later []domain.UserRole
	for _, ur := range p.relist {
		if len(t.items)+reserve >= maxTransactionItems {
			later = append(later, ur)
			continue
		}
		key := userRoleKey(ur.UserID, ur.RoleID)
		t.putVersion(newUserRoleRecord(ur, ur.Version+1), ur.Version, t.store.versionFailure(key, userRoleNotFound(ur.UserID, ur.RoleID)))
	}
	return later
}

// count adds to one counter item.
func (t *txn) count(c counterAdd) {
	upd, err := countUpdate(c.key, c.n, c.entity)
	if err != nil {
		t.fail(err)
		return
	}
	upd.TableName = aws.String(t.store.table)
	t.add(types.TransactWriteItem{Update: upd}, nil)
}
