package dynamo

import (
	"context"
	"fmt"
	"maps"
	"slices"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/edu-invite/invite/shared/domain"
)

// The organization-membership index: which users belong to an
// organization, listed by name, so that searching one organization's users
// costs a bounded number of requests however large the organization is.
//
//   - One UserOrganization item per (user, organization) in the user's
//     partition, USER#<userId> / ORG#<organizationGUID>, holding the ids of
//     the user's roles of that organization (roleIds) and whether the user
//     is its institution admin (admin). It exists exactly while the user
//     belongs to the organization (a role or the admin flag): the write
//     that empties it deletes it, so the listing needs no filter.
//   - Its gsi1 key, ORGUSERS#<organizationGUID> / <lower name>#<userId>
//     (the sort key of the all-users listing), lists the organization's
//     users by name.
//   - COUNT#orgusers#<organizationGUID>#<userId mod 16> count the items of
//     the organization, for a page's total.
//
// Every membership write keeps the items in the same transaction through
// the projection step (projection.go, userOrgWrites here): it reads the
// user's items first (one Query of the user's partition, a handful of
// items) and writes each changed item at the version read, so two
// concurrent changes of one user's memberships in one organization cannot
// both win (the loser gets domain.ErrVersionConflict and may retry).
//
// The items hold role ids rather than a count: a removal finds the item
// holding the role without knowing the role's organization, which matters
// when a role is deleted before its memberships (the role item is gone by
// then), and adding or removing a role twice cannot miscount.

const entityUserOrganization = "UserOrganization"
const entityOrgUserCount = "OrganizationUserCount"

// userOrgs is a user's organization items as read and as they are to be.
type userOrgs struct {
	userID int64
	stored map[string]userOrgRecord
	next   map[string]userOrgRecord
}

func newUserOrgs(userID int64) *userOrgs {
	return &userOrgs{userID: userID, stored: map[string]userOrgRecord{}, next: map[string]userOrgRecord{}}
}

// readUserOrgs reads a user's organization items (one Query of the user's
// partition; a user belongs to few organizations).
func (s *Store) readUserOrgs(ctx context.Context, userID int64) (*userOrgs, error) {
	items, err := s.userPartition(ctx, userPK(userID), sortKeyPrefix(prefixUserOrg))
	if err != nil {
		return nil, err
	}
	o := newUserOrgs(userID)
	for _, it := range items {
		var rec userOrgRecord
		if err := unmarshal(it, &rec); err != nil {
			return nil, err
		}
		o.stored[rec.OrganizationGUID] = rec
		rec.RoleIDs = slices.Clone(rec.RoleIDs)
		o.next[rec.OrganizationGUID] = rec
	}
	return o, nil
}

func (o *userOrgs) item(organizationGUID string) userOrgRecord {
	if rec, ok := o.next[organizationGUID]; ok {
		return rec
	}
	return userOrgRecord{itemKey: userOrgKey(o.userID, organizationGUID), Entity: entityUserOrganization,
		UserID: o.userID, OrganizationGUID: organizationGUID}
}

// addRoles records memberships of roles of one organization.
func (o *userOrgs) addRoles(organizationGUID string, roleIDs ...int64) {
	if organizationGUID == "" {
		return
	}
	rec := o.item(organizationGUID)
	for _, roleID := range roleIDs {
		if !slices.Contains(rec.RoleIDs, roleID) {
			rec.RoleIDs = append(rec.RoleIDs, roleID)
		}
	}
	slices.Sort(rec.RoleIDs)
	o.next[organizationGUID] = rec
}

// removeRoles forgets memberships, in whichever organization holds them.
func (o *userOrgs) removeRoles(roleIDs ...int64) {
	for org, rec := range o.next {
		rec.RoleIDs = slices.DeleteFunc(rec.RoleIDs, func(r int64) bool { return slices.Contains(roleIDs, r) })
		o.next[org] = rec
	}
}

// setUser lists the items under the user's current name, with its search
// words, and sets the admin flag of the organization the user administers.
func (o *userOrgs) setUser(u domain.User) {
	if u.InstitutionAdmin && u.OrganizationGUID != "" {
		o.next[u.OrganizationGUID] = o.item(u.OrganizationGUID)
	}
	for org, rec := range o.next {
		rec.Admin = u.InstitutionAdmin && u.OrganizationGUID == org
		rec.GSI1PK, rec.GSI1SK = orgUsersPK(org), userListingSK(u)
		rec.Words = userWords(u)
		o.next[org] = rec
	}
}

// deleteAll ends the user's belonging to every organization.
func (o *userOrgs) deleteAll() { clear(o.next) }

// userOrgWrites are the writes that turn the stored items into the next
// ones, each at the version read, and the changes of the organizations'
// counts.
func userOrgWrites(o *userOrgs) ([]derivedWrite, map[itemKey]int64) {
	var writes []derivedWrite
	counts := map[itemKey]int64{}
	conflict := func(*Store) failure { return always(domain.ErrVersionConflict) }
	orgs := slices.Sorted(maps.Keys(o.stored))
	for _, org := range slices.Sorted(maps.Keys(o.next)) {
		if _, ok := o.stored[org]; !ok {
			orgs = append(orgs, org)
		}
	}
	for _, org := range orgs {
		before, wasListed := o.stored[org]
		after := o.next[org]
		key := userOrgKey(o.userID, org)
		switch listed := after.listed(); {
		case wasListed && !listed:
			writes = append(writes, derivedWrite{copy: copyOrganization, del: &key, cond: condPtr(versionIs(before.Version)), onFail: conflict})
			counts[orgUserCountKey(org, o.userID)]--
		case !listed:
		case after.GSI1SK == "":
			err := fmt.Errorf("organization item of user %d in %s has no name to be listed by", o.userID, org)
			writes = append(writes, derivedWrite{err: err})
		case !wasListed:
			after.Version = 1
			writes = append(writes, derivedWrite{copy: copyOrganization, put: after, cond: condPtr(notExists()), onFail: conflict})
			counts[orgUserCountKey(org, o.userID)]++
		case before.GSI1SK != after.GSI1SK || before.Admin != after.Admin || !slices.Equal(before.RoleIDs, after.RoleIDs) ||
			!slices.Equal(before.Words, after.Words):
			after.Version = before.Version + 1
			writes = append(writes, derivedWrite{copy: copyOrganization, put: after, cond: condPtr(versionIs(before.Version)), onFail: conflict})
		}
	}
	return writes, counts
}

func countUpdate(key itemKey, n int64, entity string) (*types.Update, error) {
	expr, err := expression.NewBuilder().WithUpdate(
		expression.Add(expression.Name("value"), expression.Value(n)).
			Set(expression.Name("entity"), expression.Value(entity))).Build()
	if err != nil {
		return nil, err
	}
	return &types.Update{Key: key.attributes(), UpdateExpression: expr.Update(),
		ExpressionAttributeNames: expr.Names(), ExpressionAttributeValues: expr.Values()}, nil
}

// organizationsOfRoles maps role ids to their organizations; roles without
// one, or no longer stored, are left out.
func (s *Store) organizationsOfRoles(ctx context.Context, roleIDs []int64) (map[int64]string, error) {
	orgs := map[int64]string{}
	if len(roleIDs) == 0 {
		return orgs, nil
	}
	roles, err := s.GetRoles(ctx, roleIDs)
	if err != nil {
		return nil, err
	}
	for _, r := range roles {
		if r.OrganizationGUID != "" {
			orgs[r.ID] = r.OrganizationGUID
		}
	}
	return orgs, nil
}

// RebuildUserOrganizations makes a user's organization items match the
// user's memberships and institution admin flag, from the user's partition
// (the user, its memberships and its organization items: one Query) and
// its roles (BatchGetItem), in one transaction. It repairs or backfills the
// index: for data written before the index existed, run it once per user
// (the user ids come from the gsi2 USERS listing, walked in pages by a
// one-off job; each call is a few requests and one small transaction).
// Memberships of roles that are gone are not counted.
func (s *Store) RebuildUserOrganizations(ctx context.Context, userID int64) error {
	items, err := s.userPartition(ctx, userPK(userID), nil)
	if err != nil {
		return err
	}
	o := newUserOrgs(userID)
	var user *domain.User
	var roleIDs []int64
	for _, it := range items {
		var head struct {
			Entity string `dynamodbav:"entity"`
		}
		if err := unmarshal(it, &head); err != nil {
			return err
		}
		switch head.Entity {
		case entityUser:
			u, err := decodeWith[userRecord, domain.User](it)
			if err != nil {
				return err
			}
			user = &u
		case entityUserRole:
			var rec userRoleRecord
			if err := unmarshal(it, &rec); err != nil {
				return err
			}
			roleIDs = append(roleIDs, rec.RoleID)
		case entityUserOrganization:
			var rec userOrgRecord
			if err := unmarshal(it, &rec); err != nil {
				return err
			}
			o.stored[rec.OrganizationGUID] = rec
		}
	}
	// The items are what the projection makes of the user and its
	// memberships written anew, against the items stored.
	st := newProjectionState()
	st.orgs[userID] = o
	var changes []change
	if user != nil {
		changes = append(changes, createdUser(*user))
		for _, roleID := range roleIDs {
			changes = append(changes, addedMembership(domain.UserRole{UserID: userID, RoleID: roleID}, *user))
		}
	}
	st, err = s.readProjectionState(ctx, st, changes) // the roles' organizations; roles gone have none
	if err != nil {
		return err
	}
	t := s.newTxn()
	t.apply(projectChanges(st, changes...).only(copyOrganization, entityOrgUserCount), 0)
	return t.commit(ctx)
}

// listedDifferently tells whether a user change touches the organization
// items (the name they are listed by, their search words, or institution
// adminship), so that other changes (a login's last activity) cost no
// extra read.
func listedDifferently(stored, changed domain.User) bool {
	return userListingSK(stored) != userListingSK(changed) || stored.InstitutionAdmin != changed.InstitutionAdmin ||
		stored.OrganizationGUID != changed.OrganizationGUID || !slices.Equal(userWords(stored), userWords(changed))
}
