package dynamo

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/edu-invite/invite/shared/domain"
)

// The member counter of a role: roleMemberCountShards items
// COUNT#members#<roleId>#<shard> / COUNT, `value` the memberships of the
// role's users with userId mod shards = shard. Every transaction that adds
// or removes memberships adds to them (SaveAcceptance, DeleteUserRoles,
// ApplyRemoval: acceptance, user_roles create and delete, expiry, user
// deletion); CreateRole and Seed write them at 0 with `exact`. A listing of
// roles reads the shards of a page of roles in one BatchGetItem instead of
// one COUNT query per role.
//
// Roles created by an older version have no `exact` shards (a later ADD
// creates a shard without it): their count falls back to the COUNT query,
// so it is right, only dearer, until RecountMembersOfRole repairs them.

const (
	entityRoleMemberCount = "RoleMemberCount"
	// roleMemberCountShards spreads a role's counter so that concurrent
	// acceptances into one role seldom touch the same item (a transaction
	// conflict fails one of them); 4 shards × 25 roles is one BatchGetItem.
	roleMemberCountShards = 4
)

func roleMemberCountKey(roleID, shard int64) itemKey {
	return itemKey{PK: "COUNT#members#" + id(roleID) + "#" + id(shard), SK: "COUNT"}
}

func roleMemberCountShardOf(ur domain.UserRole) itemKey {
	return roleMemberCountKey(ur.RoleID, ur.UserID%roleMemberCountShards)
}

// roleMemberCountRecord is one shard of a role's member counter.
type roleMemberCountRecord struct {
	itemKey
	Entity string `dynamodbav:"entity"`
	Value  int64  `dynamodbav:"value"`
	// Exact marks a shard written from the role's creation (or a recount)
	// on: only a role whose every shard is exact is counted from them.
	Exact bool `dynamodbav:"exact"`
}

// newRoleMemberCountRecords are the shards of a role's counter holding the
// given memberships.
func newRoleMemberCountRecords(roleID int64, urs []domain.UserRole) []roleMemberCountRecord {
	out := make([]roleMemberCountRecord, roleMemberCountShards)
	for shard := range out {
		out[shard] = roleMemberCountRecord{itemKey: roleMemberCountKey(roleID, int64(shard)), Entity: entityRoleMemberCount, Exact: true}
	}
	for _, ur := range urs {
		out[ur.UserID%roleMemberCountShards].Value++
	}
	return out
}

// countMembers adds to the member counters of the memberships' roles: +1
// or −1 per membership, one update per shard touched (a transaction may not
// touch an item twice).
func (t *txn) countMembers(urs []domain.UserRole, n int64) {
	sums := map[itemKey]int64{}
	var order []itemKey
	for _, ur := range urs {
		k := roleMemberCountShardOf(ur)
		if _, ok := sums[k]; !ok {
			order = append(order, k)
		}
		sums[k] += n
	}
	for _, k := range order {
		upd, err := countUpdate(k, sums[k], entityRoleMemberCount)
		if err != nil {
			t.fail(err)
			return
		}
		upd.TableName = aws.String(t.store.table)
		t.add(types.TransactWriteItem{Update: upd}, nil)
	}
}

// CountMembersOfRoles implements domain.RoleListingStore: the member
// counters of the roles (one BatchGetItem per 25 roles), and a COUNT query
// for each role whose counter is not exact (a role of an older version).
func (s *Store) CountMembersOfRoles(ctx context.Context, roleIDs []int64) (map[int64]int64, error) {
	shards, err := batchGetRecords[roleMemberCountRecord](ctx, s, memberCountKeys(roleIDs))
	if err != nil {
		return nil, err
	}
	return s.memberCountsFrom(ctx, roleIDs, shards)
}

// memberCountKeys are the counter shards of the roles.
func memberCountKeys(roleIDs []int64) []itemKey {
	keys := make([]itemKey, 0, len(roleIDs)*roleMemberCountShards)
	for _, roleID := range roleIDs {
		for shard := range int64(roleMemberCountShards) {
			keys = append(keys, roleMemberCountKey(roleID, shard))
		}
	}
	return keys
}

// memberCountsFrom sums the counter shards read of each role, and counts a
// role whose counter is not exact with a COUNT query.
func (s *Store) memberCountsFrom(ctx context.Context, roleIDs []int64, shards map[itemKey]roleMemberCountRecord) (map[int64]int64, error) {
	counts := make(map[int64]int64, len(roleIDs))
	for _, roleID := range roleIDs {
		var total int64
		exact := true
		for shard := range int64(roleMemberCountShards) {
			rec, ok := shards[roleMemberCountKey(roleID, shard)]
			exact = exact && ok && rec.Exact
			total += rec.Value
		}
		if !exact {
			var err error
			if total, err = s.countMembershipsOfRole(ctx, roleID); err != nil {
				return nil, err
			}
		}
		counts[roleID] = total
	}
	return counts, nil
}

// RecountMembersOfRole writes a role's member counter from its memberships
// (gsi1 ROLE#<id> UR#, keys and user ids only): the one-off repair of a
// role created by an older version. A membership written between the read
// and the write is not counted: run it when the role is quiet, or again.
func (s *Store) RecountMembersOfRole(ctx context.Context, roleID int64) error {
	urs, err := s.userRolesOfRoleForCount(ctx, roleID)
	if err != nil {
		return err
	}
	var records []any
	for _, rec := range newRoleMemberCountRecords(roleID, urs) {
		records = append(records, rec)
	}
	return s.batchPutAll(ctx, records)
}

func (s *Store) userRolesOfRoleForCount(ctx context.Context, roleID int64) ([]domain.UserRole, error) {
	in, err := s.partitionQuery(indexGSI1, prefixRole+id(roleID), sortKeyPrefix(prefixUserRole))
	if err != nil {
		return nil, err
	}
	project(in, "userId", "roleId")
	items, err := s.queryAll(ctx, in)
	if err != nil {
		return nil, err
	}
	urs := make([]domain.UserRole, 0, len(items))
	for _, it := range items {
		var rec struct {
			UserID int64 `dynamodbav:"userId"`
		}
		if err := unmarshal(it, &rec); err != nil {
			return nil, err
		}
		urs = append(urs, domain.UserRole{UserID: rec.UserID, RoleID: roleID})
	}
	return urs, nil
}
