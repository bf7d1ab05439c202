package dynamo

import (
	"context"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/edu-invite/invite/shared/domain"
)

// prefixInvitationLinks starts the gsi1 sort keys of a role's invitation
// links, open (INV#) and history (INVH#), and of nothing else there.
const prefixInvitationLinks = "INV"

// repairHistoryLinks moves the role links of invitations no longer open
// that an older version wrote under the open keys (INV#…) to the history
// keys (invitationLinkSortKeys), for a page of roles of the index repair.
// The condition on the status read keeps a link rewritten meanwhile as it
// is. Links without a copy of their invitation get one (copyInvitationLinks,
// also for a role whose members index is complete): reads trust the copies.
// Links without the person key (gsi2, a person's invitations) get it
// (givePersonKey; a copy written anew carries it).
func (s *Store) repairHistoryLinks(ctx context.Context, roleIDs []int64) (int, error) {
	moved := 0
	for _, roleID := range roleIDs {
		// INV# and INVH#: the person key is missing on links of either.
		in, err := s.partitionQuery(indexGSI1, prefixRole+id(roleID), sortKeyPrefix(prefixInvitationLinks))
		if err != nil {
			return moved, err
		}
		project(in, attrPK, attrSK, "invitationId", "roleId", "status", "listed", "email", attrGSI1SK, attrGSI2PK, attrGSI4SK)
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
			if err := s.givePersonKey(ctx, link); err != nil {
				return moved, err
			}
			if status == domain.InvitationOpen {
				continue
			}
			gsi1sk, gsi4sk := invitationLinkSortKeys(link.InvitationID, status)
			if link.GSI1SK == gsi1sk && link.GSI4SK == gsi4sk {
				continue
			}
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

// givePersonKey writes the person key (gsi2 INVPERSON#<address>) of a link
// an older version wrote without it, from the address its copy holds; a
// link that has it, or has no address, is left as it is. The condition on
// the address read keeps a link rewritten meanwhile as it is.
func (s *Store) givePersonKey(ctx context.Context, link invitationRoleRecord) error {
	pk := invitationPersonPK(link.Email)
	if pk == "" || link.GSI2PK == pk {
		return nil
	}
	expr, err := expression.NewBuilder().
		WithUpdate(expression.Set(expression.Name(attrGSI2PK), expression.Value(pk)).
			Set(expression.Name(attrGSI2SK), expression.Value(invitationPersonSK(link.InvitationID, link.RoleID, link.Email)))).
		WithCondition(expression.Name("email").Equal(expression.Value(link.Email))).Build()
	if err != nil {
		return err
	}
	_, err = s.db.UpdateItem(ctx, &dynamodb.UpdateItemInput{TableName: aws.String(s.table), Key: link.itemKey.attributes(),
		UpdateExpression: expr.Update(), ConditionExpression: expr.Condition(),
		ExpressionAttributeNames: expr.Names(), ExpressionAttributeValues: expr.Values()})
	if err != nil && !isConditionFailed(err) {
		return fmt.Errorf("person key of invitation link %s: %w", link.PK, err)
	}
	return nil
}
