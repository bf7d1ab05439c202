package dynamo

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"

	"github.com/edu-invite/invite/shared/domain"
)

// ApplyRemovals implements domain.LifecycleStore: the removals of several
// users in one transaction, each checked as ApplyRemoval checks it (the
// memberships' versions, the kept or deleted user's version). The counters
// that several users share (a role's member-counter shard, an
// organization's count, a shard of the user count) are summed into one
// update each, since a transaction writes an item at most once. The
// derived items come from the projection step, as ApplyRemoval's do.
func (s *Store) ApplyRemovals(ctx context.Context, removals []domain.Removal) error {
	if len(removals) == 1 {
		return s.ApplyRemoval(ctx, removals[0])
	}
	seen := map[int64]bool{}
	var urs []domain.UserRole
	deleted := map[int64]domain.User{}
	var deletedOrder []int64
	for _, r := range removals {
		users := map[int64]bool{}
		for _, ur := range r.UserRoles {
			users[ur.UserID] = true
		}
		for _, u := range []*domain.User{r.DeleteUser, r.KeepUser} {
			if u != nil {
				users[u.ID] = true
			}
		}
		if len(users) > 1 {
			return domain.Invalidf("a removal concerns one user, this one %d", len(users))
		}
		for uid := range users {
			if seen[uid] {
				return domain.Invalidf("user %d is in two removals of one transaction", uid)
			}
			seen[uid] = true
		}
		urs = append(urs, r.UserRoles...)
		if u := r.DeleteUser; u != nil {
			deleted[u.ID] = *u
			deletedOrder = append(deletedOrder, u.ID)
		}
	}

	changes := make([]change, 0, len(urs)+len(deletedOrder))
	for _, ur := range urs {
		changes = append(changes, removedMembership(ur))
	}
	for _, uid := range deletedOrder {
		changes = append(changes, deletedUser(deleted[uid]))
	}
	st, err := s.readProjectionState(ctx, newProjectionState(), changes)
	if err != nil {
		return err
	}
	p := projectChanges(st, changes...)
	t := s.newTxn()
	keep := map[int64]*roleSummaryChange{}
	for _, r := range removals {
		if u := r.KeepUser; u != nil && r.DeleteUser == nil {
			if keep[u.ID] = p.takeSummary(u.ID); keep[u.ID] == nil {
				keep[u.ID] = &roleSummaryChange{}
			}
		}
	}
	t.apply(p, 0)
	for _, r := range removals {
		if u := r.KeepUser; u != nil && r.DeleteUser == nil {
			// As in ApplyRemoval: the user stays because of memberships
			// read at u.Version.
			key := userKey(u.ID)
			t.updateItem(key, keep[u.ID].apply(expression.UpdateBuilder{}).Add(expression.Name("version"), expression.Value(1)),
				versionIs(u.Version), s.versionFailure(key, userNotFound(u.ID)))
		}
	}
	for _, uid := range deletedOrder {
		u := deleted[uid]
		key := userKey(u.ID)
		version := versionIs(u.Version)
		t.delete(key, &version, s.versionFailure(key, userNotFound(u.ID)))
		t.delete(userSubKey(u.Sub), nil, nil)
	}
	for _, r := range removals {
		t.putAudit(r.Audit)
		t.putDeliveries(r.Deliveries)
		t.putMails(r.Mails)
	}
	return t.commitSkippingGoneUsers(ctx)
}
