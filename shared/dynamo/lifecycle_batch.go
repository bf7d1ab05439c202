package dynamo

import (
	"context"
	"fmt"
	"maps"
	"slices"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/edu-invite/invite/shared/domain"
)

// ApplyRemovals implements domain.LifecycleStore: the removals of several
// users in one transaction, each checked as ApplyRemoval checks it (the
// memberships' versions, the kept or deleted user's version). The counters
// that several users share (a role's member-counter shard, an
// organization's count, a shard of the user count) are summed into one
// update each, since a transaction writes an item at most once. The
// derived items written here are the ones ApplyRemoval writes: member
// counters, role summaries, search words and counts, organization items.
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

	t := s.newTxn()
	for _, ur := range urs {
		key := userRoleKey(ur.UserID, ur.RoleID)
		version := versionIs(ur.Version)
		t.delete(key, &version, s.versionFailure(key, userRoleNotFound(ur.UserID, ur.RoleID)))
	}
	t.countMembers(urs, -1)
	summaries := summaryOfRemovals(urs)
	for uid := range deleted {
		delete(summaries, uid) // a deleted user's item goes whole
	}
	for _, r := range removals {
		if u := r.KeepUser; u != nil && r.DeleteUser == nil {
			// As in ApplyRemoval: the user stays because of memberships
			// read at u.Version.
			change := summaries[u.ID]
			delete(summaries, u.ID)
			key := userKey(u.ID)
			t.updateItem(key, change.apply(expression.UpdateBuilder{}).Add(expression.Name("version"), expression.Value(1)),
				versionIs(u.Version), s.versionFailure(key, userNotFound(u.ID)))
		}
	}
	t.updateRoleSummaries(summaries, 0)
	userCounts := map[itemKey]int64{}
	var countOrder []itemKey
	for _, uid := range deletedOrder {
		u := deleted[uid]
		key := userKey(u.ID)
		version := versionIs(u.Version)
		t.delete(key, &version, s.versionFailure(key, userNotFound(u.ID)))
		t.delete(userSubKey(u.Sub), nil, nil)
		for _, rec := range newUserWordRecords(u) {
			t.delete(rec.itemKey, nil, nil)
		}
		k := userCountKey(u.ID)
		if _, ok := userCounts[k]; !ok {
			countOrder = append(countOrder, k)
		}
		userCounts[k]--
	}
	for _, k := range countOrder {
		upd, err := userCountUpdate(k, userCounts[k])
		if err != nil {
			return fmt.Errorf("user count: %w", err)
		}
		upd.TableName = aws.String(s.table)
		t.add(types.TransactWriteItem{Update: upd}, nil)
	}
	if err := s.removeFromOrganizationsOfUsers(ctx, t, urs, deleted); err != nil {
		return err
	}
	for _, r := range removals {
		t.putAudit(r.Audit)
		t.putDeliveries(r.Deliveries)
		t.putMails(r.Mails)
	}
	return t.commitSkippingGoneUsers(ctx)
}

// removeFromOrganizationsOfUsers is removeFromOrganizations for several
// users at once, some of them deleted: each user's organization items lose
// the roles of its ended memberships (a deleted user's go whole), and each
// organization's count changes by one update for all of them.
func (s *Store) removeFromOrganizationsOfUsers(ctx context.Context, t *txn, urs []domain.UserRole, deleted map[int64]domain.User) error {
	byUser := map[int64][]int64{}
	var users []int64
	for _, ur := range urs {
		if _, ok := byUser[ur.UserID]; !ok {
			users = append(users, ur.UserID)
		}
		byUser[ur.UserID] = append(byUser[ur.UserID], ur.RoleID)
	}
	for _, uid := range slices.Sorted(maps.Keys(deleted)) {
		if _, ok := byUser[uid]; !ok {
			users = append(users, uid)
			byUser[uid] = nil
		}
	}
	counts := map[itemKey]int64{}
	for _, userID := range users {
		o, err := s.readUserOrgs(ctx, userID)
		if err != nil {
			return err
		}
		o.removeRoles(byUser[userID]...)
		if _, ok := deleted[userID]; ok {
			o.deleteAll()
		}
		t.writeUserOrgs(o, counts)
	}
	t.countOrgUsers(counts)
	return nil
}
