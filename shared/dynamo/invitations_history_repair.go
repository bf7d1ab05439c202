package dynamo

import (
	"context"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/edu-invite/invite/shared/domain"
)

// repairHistoryLinks moves the role links of invitations no longer open
// that an older version wrote under the open keys (INV#…) to the history
// keys (invitationLinkSortKeys), for a page of roles of the index repair.
// The condition on the status read keeps a link rewritten meanwhile as it
// is. Links without a copy of their invitation get one (copyInvitationLinks,
// also for a role whose members index is complete): reads trust the copies.
func (s *Store) repairHistoryLinks(ctx context.Context, roleIDs []int64) (int, error) {
	moved := 0
	for _, roleID := range roleIDs {
		in, err := s.partitionQuery(indexGSI1, prefixRole+id(roleID), sortKeyPrefix(prefixInvitation))
		if err != nil {
			return moved, err
		}
		project(in, attrPK, attrSK, "invitationId", "status", "listed")
		links, err := s.queryAll(ctx, in)
		if err != nil {
			return moved, err
		}
		var uncopied []int64
		for _, av := range links {
			var link invitationRoleRecord
			if err := unmarshal(av, &link); err != nil {
				return moved, err
			}
			status := domain.InvitationStatus(link.Status)
			if !link.Listed {
				uncopied = append(uncopied, link.InvitationID)
				continue
			}
			if status == domain.InvitationOpen {
				continue
			}
			gsi1sk, gsi4sk := invitationLinkSortKeys(link.InvitationID, status)
			expr, err := expression.NewBuilder().
				WithUpdate(expression.Set(expression.Name(attrGSI1SK), expression.Value(gsi1sk)).
					Set(expression.Name(attrGSI4SK), expression.Value(gsi4sk))).
				WithCondition(expression.Name("status").Equal(expression.Value(link.Status))).Build()
			if err != nil {
				return moved, err
			}
			_, err = s.db.UpdateItem(ctx, &dynamodb.UpdateItemInput{TableName: aws.String(s.table), Key: link.itemKey.attributes(),
				UpdateExpression: expr.Update(), ConditionExpression: expr.Condition(),
				ExpressionAttributeNames: expr.Names(), ExpressionAttributeValues: expr.Values()})
			if isConditionFailed(err) {
				continue
			}
			if err != nil {
				return moved, fmt.Errorf("move invitation link %s: %w", link.PK, err)
			}
			moved++
		}
		if err := s.copyInvitationLinks(ctx, roleID, uncopied); err != nil {
			return moved, err
		}
	}
	return moved, nil
}
