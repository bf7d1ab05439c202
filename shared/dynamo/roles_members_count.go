package dynamo

import (
	"context"

	"github.com/edu-invite/invite/shared/domain"
)

// The member counter of a role: roleMemberCountShards items
// COUNT#members#<roleId>#<shard> / COUNT, `value` the memberships of the
// role's users with userId mod shards = shard. The projection step
// (projection.go) adds to them in every transaction that adds or removes
// memberships (SaveAcceptance, DeleteUserRoles, ApplyRemoval: acceptance,
// user_roles create and delete, expiry, user deletion) and writes them at
// 0 with `exact` for a new role (CreateRole; the seed with its counts). A listing of
// roles reads the shards of a page of roles in one BatchGetItem instead of
// one COUNT query per role.
//
// Roles created by an older version have no `exact` shards (a later ADD
// creates a shard without it): RepairIndexes finds them by that and
// recounts them (RecountMembersOfRole) once; reads trust the shards.

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

// newRoleMemberCountRecords are the shards of a role's counters (all
// members, then each side: memberSides), at 0 and exact.
func newRoleMemberCountRecords(roleID int64) []roleMemberCountRecord {
	var out []roleMemberCountRecord
	for shard := range int64(roleMemberCountShards) {
		out = append(out, roleMemberCountRecord{itemKey: roleMemberCountKey(roleID, shard), Entity: entityRoleMemberCount, Exact: true})
	}
	for _, side := range memberSides {
		for shard := range int64(roleMemberCountShards) {
			out = append(out, roleMemberCountRecord{itemKey: roleSideCountKey(roleID, side, shard), Entity: entityRoleMemberCount, Exact: true})
		}
	}
	return out
}

// The sides of a role's members that U9 lists: its guests (authority
// GUEST, or a higher one whose membership includes the guest role) and
// its non-guests (any authority but GUEST). A manager with the guest role
// is on both. Each side has a counter like the role's (same shards, same
// entity, kept by the projection step), so that a page of one side has an
// exact total without reading the side.
const (
	sideGuests    = "guests"
	sideNonGuests = "others"
)

var memberSides = []string{sideGuests, sideNonGuests}

func roleSideCountKey(roleID int64, side string, shard int64) itemKey {
	return itemKey{PK: "COUNT#" + side + "#" + id(roleID) + "#" + id(shard), SK: "COUNT"}
}

func roleSideCountShardOf(ur domain.UserRole, side string) itemKey {
	return roleSideCountKey(ur.RoleID, side, ur.UserID%roleMemberCountShards)
}

// sidesOf are the sides a membership is listed on.
func sidesOf(ur domain.UserRole) []string {
	if ur.Authority == domain.Guest {
		return []string{sideGuests}
	}
	if ur.GuestRoleIncluded {
		return []string{sideGuests, sideNonGuests}
	}
	return []string{sideNonGuests}
}

func sideName(guests bool) string {
	if guests {
		return sideGuests
	}
	return sideNonGuests
}

// countSideOfRole sums a side's counter shards (trusted, as the role's
// counter is: RepairIndexes recounts a role whose shards are not exact).
func (s *Store) countSideOfRole(ctx context.Context, roleID int64, guests bool) (total int64, err error) {
	keys := make([]itemKey, roleMemberCountShards)
	for shard := range keys {
		keys[shard] = roleSideCountKey(roleID, sideName(guests), int64(shard))
	}
	shards, err := batchGetRecords[roleMemberCountRecord](ctx, s, keys)
	if err != nil {
		return 0, err
	}
	for _, rec := range shards {
		total += rec.Value
	}
	return total, nil
}

// CountMembersOfRoles implements domain.RoleListingStore: the member
// counters of the roles (one BatchGetItem per 25 roles). A role of an
// older version, whose counter is not exact, counts right once
// RepairIndexes has recounted it (RecountMembersOfRole): the one-off
// upgrade, not a second read path.
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

// memberCountsFrom sums the counter shards read of each role.
func (s *Store) memberCountsFrom(ctx context.Context, roleIDs []int64, shards map[itemKey]roleMemberCountRecord) (map[int64]int64, error) {
	counts := make(map[int64]int64, len(roleIDs))
	for _, roleID := range roleIDs {
		var total int64
		for shard := range int64(roleMemberCountShards) {
			total += shards[roleMemberCountKey(roleID, shard)].Value
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
	// The shards hold what the projection adds for these memberships.
	changes := make([]change, len(urs))
	for i, ur := range urs {
		changes[i] = addedMembership(ur, domain.User{})
	}
	shards := newRoleMemberCountRecords(roleID)
	for _, c := range projectChanges(projectionState{}, changes...).only(0, entityRoleMemberCount).counts {
		for i := range shards {
			if shards[i].itemKey == c.key {
				shards[i].Value += c.n
			}
		}
	}
	var records []any
	for _, rec := range shards {
		records = append(records, rec)
	}
	return s.batchPutAll(ctx, records)
}

func (s *Store) userRolesOfRoleForCount(ctx context.Context, roleID int64) ([]domain.UserRole, error) {
	in, err := s.partitionQuery(indexGSI1, prefixRole+id(roleID), sortKeyPrefix(prefixUserRole))
	if err != nil {
		return nil, err
	}
	project(in, "userId", "roleId", "authority", "guestRoleIncluded")
	items, err := s.queryAll(ctx, in)
	if err != nil {
		return nil, err
	}
	urs := make([]domain.UserRole, 0, len(items))
	for _, it := range items {
		var rec struct {
			UserID            int64  `dynamodbav:"userId"`
			Authority         string `dynamodbav:"authority"`
			GuestRoleIncluded bool   `dynamodbav:"guestRoleIncluded"`
		}
		if err := unmarshal(it, &rec); err != nil {
			return nil, err
		}
		urs = append(urs, domain.UserRole{UserID: rec.UserID, RoleID: roleID, Authority: domain.Authority(rec.Authority), GuestRoleIncluded: rec.GuestRoleIncluded})
	}
	return urs, nil
}
