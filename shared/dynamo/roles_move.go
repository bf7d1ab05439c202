package dynamo

import (
	"context"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
)

// A role moved to another organization takes its members with it: their
// organization items (USER#<id>/ORG#<guid>) list the role under its new
// organization. A role's members do not fit in its transaction, so they are
// rebuilt member by member after it (RebuildUserOrganizations, each its own
// transaction). So that a crash in between converges rather than leaving
// the members listed in the old organization until someone notices, the
// role's transaction marks the role organizationsPending, and the mark is
// cleared only after the last member is rebuilt. A mark left behind is
// finished by the next UpdateRole of the role and by RepairIndexes; a
// rebuild is idempotent, so finishing twice does no harm.

const attrOrganizationsPending = "organizationsPending"

// finishRoleMove rebuilds the organization items of the role's members,
// then clears the mark if the role is still at version: an update since
// carried the mark on and finishes it itself.
func (s *Store) finishRoleMove(ctx context.Context, roleID, version int64) error {
	if err := s.rebuildMembersOfRole(ctx, roleID); err != nil {
		return err
	}
	expr, err := expression.NewBuilder().
		WithUpdate(expression.Remove(expression.Name(attrOrganizationsPending))).
		WithCondition(versionIs(version)).Build()
	if err != nil {
		return err
	}
	_, err = s.db.UpdateItem(ctx, &dynamodb.UpdateItemInput{TableName: aws.String(s.table), Key: roleKey(roleID).attributes(),
		UpdateExpression: expr.Update(), ConditionExpression: expr.Condition(),
		ExpressionAttributeNames: expr.Names(), ExpressionAttributeValues: expr.Values()})
	if err != nil && !isConditionFailed(err) {
		return fmt.Errorf("clear the move of role %d: %w", roleID, err)
	}
	return nil
}
