package dynamo

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"sync"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/edu-invite/invite/shared/domain"
)

// batchWriteLimit is DynamoDB's maximum number of writes per BatchWriteItem.
const batchWriteLimit = 25

// Seed implements domain.UserSearchStore (S1): roles with their unique
// names and application links, users with their sub reservations and the
// same index items as every other user write (so seeded users are
// searchable), and memberships, 25 puts per BatchWriteItem. The writes are
// not conditional and not atomic: the caller gives fresh ids. No
// deliveries are written: seed data are never provisioned.
func (s *Store) Seed(ctx context.Context, seed domain.Seed) error {
	var records []any
	roleCounts := map[string]int64{}
	users := make(map[int64]domain.User, len(seed.Users)) // every membership's user is seeded (checked below)
	for _, u := range seed.Users {
		users[u.ID] = u
	}
	for _, r := range seed.Roles {
		if err := checkRole(r); err != nil {
			return err
		}
		role := newRoleRecord(r, 1)
		role.MembersListed = true
		records = append(records, role, newRoleNameRecord(r))
		for _, manageID := range r.ManageIDs() {
			records = append(records, newAppLinkRecord(r, manageID))
		}
		records = append(records, seedRoleListing(r, roleCounts)...)
	}
	if slices.ContainsFunc(seed.Roles, func(r domain.Role) bool { return r.ID == 1 }) {
		// Role 1 in the seed: a fresh table, where no role of an older
		// version lacks its listing items (as for CreateRole).
		records = append(records, roleReadyRecord{itemKey: roleListingReadyKey, Entity: entityRoleReady})
	}
	seededUserRoles := map[int64][]domain.UserRole{}
	for _, ur := range seed.UserRoles {
		seededUserRoles[ur.UserID] = append(seededUserRoles[ur.UserID], ur)
	}
	for _, u := range seed.Users {
		userItem, err := newUserItem(u, seededUserRoles[u.ID])
		if err != nil {
			return err
		}
		records = append(records, userItem, newUserSubRecord(u))
		for _, rec := range newUserWordRecords(u) {
			records = append(records, rec)
		}
	}
	seededRoles := map[int64][]domain.UserRole{}
	for _, r := range seed.Roles {
		seededRoles[r.ID] = nil
	}
	otherRoles := map[itemKey]int64{} // counter shards of roles not in the seed
	for _, ur := range seed.UserRoles {
		ur.Listing = domain.ListingOf(users[ur.UserID])
		records = append(records, newUserRoleRecord(ur, 1))
		if urs, ok := seededRoles[ur.RoleID]; ok {
			seededRoles[ur.RoleID] = append(urs, ur)
		} else {
			otherRoles[roleMemberCountShardOf(ur)]++
		}
	}
	for roleID, urs := range seededRoles {
		for _, rec := range newRoleMemberCountRecords(roleID, urs) {
			records = append(records, rec)
		}
	}
	orgRecords, orgCounts, err := s.seedUserOrgs(ctx, seed)
	if err != nil {
		return err
	}
	records = append(records, orgRecords...)
	if err := s.batchPutAll(ctx, records); err != nil {
		return err
	}
	perShard := map[int64]int64{}
	for _, u := range seed.Users {
		perShard[u.ID%userCountShards]++
	}
	for shard, n := range perShard {
		if err := s.addToCount(ctx, userCountKey(shard), n, entityUserCount); err != nil {
			return err
		}
	}
	for key, n := range otherRoles {
		if err := s.addToCount(ctx, key, n, entityRoleMemberCount); err != nil {
			return err
		}
	}
	for key, n := range orgCounts {
		if err := s.addToCount(ctx, key, n, entityOrgUserCount); err != nil {
			return err
		}
	}
	for scope, n := range roleCounts {
		if err := s.addToCount(ctx, roleCountKey(scope), n, entityRoleCount); err != nil {
			return err
		}
	}
	return nil
}

// addToCount adds n to a count item, outside a transaction.
func (s *Store) addToCount(ctx context.Context, key itemKey, n int64, entity string) error {
	upd, err := countUpdate(key, n, entity)
	if err != nil {
		return err
	}
	_, err = s.db.UpdateItem(ctx, &dynamodb.UpdateItemInput{TableName: aws.String(s.table), Key: upd.Key,
		UpdateExpression: upd.UpdateExpression, ExpressionAttributeNames: upd.ExpressionAttributeNames,
		ExpressionAttributeValues: upd.ExpressionAttributeValues})
	if err != nil {
		return fmt.Errorf("count seeded users: %w", err)
	}
	return nil
}

// seedWriters is how many BatchWriteItem calls the seed has in flight: the
// load is bound by round trips, not by the table's capacity (on-demand), and
// a bound keeps DynamoDB Local and the Lambda's connections from being flooded.
const seedWriters = 8

// batchPutAll writes records in batches of 25, seedWriters at a time; the
// first error stops the others.
func (s *Store) batchPutAll(ctx context.Context, records []any) error {
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	batches := make(chan []any)
	var wg sync.WaitGroup
	for range seedWriters {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for batch := range batches {
				if err := s.batchPut(ctx, batch); err != nil {
					cancel(err)
				}
			}
		}()
	}
send:
	for start := 0; start < len(records); start += batchWriteLimit {
		select {
		case batches <- records[start:min(start+batchWriteLimit, len(records))]:
		case <-ctx.Done():
			break send
		}
	}
	close(batches)
	wg.Wait()
	if err := context.Cause(ctx); err != nil {
		return err
	}
	return nil
}

// batchPut writes up to 25 items, retrying unprocessed ones with a growing pause.
func (s *Store) batchPut(ctx context.Context, records []any) error {
	reqs := make([]types.WriteRequest, 0, len(records))
	for _, rec := range records {
		av, err := marshal(rec)
		if err != nil {
			return err
		}
		reqs = append(reqs, types.WriteRequest{PutRequest: &types.PutRequest{Item: av}})
	}
	pause := 20 * time.Millisecond
	for attempt := 0; len(reqs) > 0; attempt++ {
		if attempt > 0 {
			if attempt > 8 {
				return fmt.Errorf("batch write: %d items still unprocessed after %d attempts", len(reqs), attempt)
			}
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-time.After(pause):
			}
			pause *= 2
		}
		out, err := s.db.BatchWriteItem(ctx, &dynamodb.BatchWriteItemInput{RequestItems: map[string][]types.WriteRequest{s.table: reqs}})
		if err != nil {
			return fmt.Errorf("batch write: %w", err)
		}
		reqs = out.UnprocessedItems[s.table]
	}
	return nil
}

// seedUserOrgs are the organization items of the seeded users (new users:
// nothing is stored for them yet) and the changes of the organizations'
// counts. The roles' organizations come from the seed, else from the table.
func (s *Store) seedUserOrgs(ctx context.Context, seed domain.Seed) ([]any, map[itemKey]int64, error) {
	roleOrgs := map[int64]string{}
	for _, r := range seed.Roles {
		roleOrgs[r.ID] = r.OrganizationGUID
	}
	var unknown []int64
	for _, ur := range seed.UserRoles {
		if _, ok := roleOrgs[ur.RoleID]; !ok && !slices.Contains(unknown, ur.RoleID) {
			unknown = append(unknown, ur.RoleID)
		}
	}
	stored, err := s.organizationsOfRoles(ctx, unknown)
	if err != nil {
		return nil, nil, err
	}
	maps.Copy(roleOrgs, stored)
	byUser := make(map[int64]*userOrgs, len(seed.Users))
	for _, u := range seed.Users {
		byUser[u.ID] = newUserOrgs(u.ID)
	}
	for _, ur := range seed.UserRoles {
		o, ok := byUser[ur.UserID]
		if !ok {
			return nil, nil, domain.Invalidf("seeded membership %d is of user %d, who is not seeded", ur.ID, ur.UserID)
		}
		o.addRoles(roleOrgs[ur.RoleID], ur.RoleID)
	}
	var records []any
	counts := map[itemKey]int64{}
	for _, u := range seed.Users {
		o := byUser[u.ID]
		o.setUser(u)
		for _, org := range slices.Sorted(maps.Keys(o.next)) {
			rec := o.next[org]
			rec.Version = 1
			records = append(records, rec)
			counts[orgUserCountKey(org, u.ID)]++
		}
	}
	return records, counts, nil
}
