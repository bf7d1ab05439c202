package dynamo

import (
	"context"
	"slices"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/edu-invite/invite/shared/domain"
)

// A deleted role's memberships go after the role, in transactions of their
// own that can lose to concurrent writes of their members. The role's
// record stays, outside every index, as a deletion in progress (sk
// `DELETED`, written by DeleteRole in its transaction) until the last of
// them is gone: a repeated deletion finds the role there, checks the
// caller's right on it and finishes the removal.
const (
	skRoleDeletion     = "DELETED"
	entityRoleDeletion = "RoleDeletion"
)

func roleDeletionKey(roleID int64) itemKey {
	return itemKey{PK: roleKey(roleID).PK, SK: skRoleDeletion}
}

func newRoleDeletionRecord(stored domain.Role) roleRecord {
	rec := newRoleRecord(stored, stored.Version)
	rec.itemKey = roleDeletionKey(stored.ID)
	rec.indexKeys = indexKeys{} // in no listing, no members index
	rec.Entity = entityRoleDeletion
	rec.MembersListed, rec.MembersSided = false, false
	return rec
}

// GetRoleDeletion implements domain.RoleStore.
func (s *Store) GetRoleDeletion(ctx context.Context, roleID int64) (domain.Role, error) {
	var rec roleRecord
	found, err := s.getItem(ctx, roleDeletionKey(roleID), &rec)
	if err != nil {
		return domain.Role{}, err
	}
	if !found {
		return domain.Role{}, roleNotFound(roleID)
	}
	return rec.domain()
}

// FinishRoleDeletion implements domain.RoleStore.
func (s *Store) FinishRoleDeletion(ctx context.Context, roleID int64) error {
	_, err := s.db.DeleteItem(ctx, &dynamodb.DeleteItemInput{TableName: aws.String(s.table),
		Key: roleDeletionKey(roleID).attributes()})
	return err
}

// roleStillIn is a condition check that the role is still there, in the
// organization the membership's organization item was derived from
// (organizationGUID, "" for none). So a membership is never added to a role
// deleted concurrently (its deletion could not see it and would leave it
// behind), nor listed under the organization a concurrent move left (the
// move's rebuild of its members' organization items could not see it): the
// acceptance loses with a conflict, and its retry reads the role again.
func (t *txn) roleStillIn(roleID int64, organizationGUID string) {
	org := expression.Name("organizationGUID")
	sameOrg := expression.AttributeNotExists(org)
	if organizationGUID != "" {
		sameOrg = org.Equal(expression.Value(organizationGUID))
	}
	t.checkItem(roleKey(roleID), expression.AttributeExists(expression.Name(attrPK)).And(sameOrg),
		t.store.versionFailure(roleKey(roleID), roleNotFound(roleID)))
}

// newRoleIDs are the distinct roles of new memberships.
func newRoleIDs(urs []domain.UserRole) []int64 {
	ids := make([]int64, 0, len(urs))
	for _, ur := range urs {
		if !slices.Contains(ids, ur.RoleID) {
			ids = append(ids, ur.RoleID)
		}
	}
	return ids
}
