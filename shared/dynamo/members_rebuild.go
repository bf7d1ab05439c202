package dynamo

import (
	"context"
	"errors"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/edu-invite/invite/shared/domain"
)

// RebuildMembersIndexOfRole completes the members index of a role written
// by older versions (members_index.go), the one-off backfill of a role:
// every membership gets the copy of its user (version + 1, at the version
// read; one changed meanwhile is read again, up to 3 times), every
// invitation link without a copy gets one (only while it exists and has
// none), every membership gets its side key (gsi1, memberSideSK), and the
// role item gets its gsi4 keys, membersListed and membersSided, so that
// its page is read from the index from then on. Memberships whose user is
// gone are left as they are (no list shows them). Idempotent; safe while
// the service runs. A missing role is NotFound. Cost: about one request
// per 25 memberships, plus one per stale membership and per old link.
func (s *Store) RebuildMembersIndexOfRole(ctx context.Context, roleID int64) error {
	if _, err := s.getRoleRecord(ctx, roleID); err != nil {
		return err
	}
	in, err := s.partitionQuery(indexGSI1, prefixRole+id(roleID), sortKeyPrefix(prefixUserRole))
	if err != nil {
		return err
	}
	in.TableName, in.Limit = aws.String(s.table), aws.Int32(maxPageSize)
	for {
		out, err := s.db.Query(ctx, in)
		if err != nil {
			return fmt.Errorf("query memberships of role %d: %w", roleID, err)
		}
		urs, err := decodeUserRoles(out.Items)
		if err != nil {
			return err
		}
		sided := make(map[int64]string, len(out.Items))
		for i, av := range out.Items {
			sided[urs[i].UserID] = stringAttr(av, attrGSI1SK)
		}
		if err := s.relistRoleMembers(ctx, urs, sided); err != nil {
			return err
		}
		if len(out.LastEvaluatedKey) == 0 {
			break
		}
		in.ExclusiveStartKey = out.LastEvaluatedKey
	}
	if err := s.listInvitationLinksOfRole(ctx, roleID); err != nil {
		return err
	}
	// Last, so that a page is never read from an index still being filled.
	upd := expression.Set(expression.Name("membersListed"), expression.Value(true)).
		Set(expression.Name("membersSided"), expression.Value(true)).
		Set(expression.Name(attrGSI4PK), expression.Value(membersIndexPK(roleID))).
		Set(expression.Name(attrGSI4SK), expression.Value(roleIndexSK))
	expr, err := expression.NewBuilder().WithUpdate(upd).WithCondition(expression.AttributeExists(expression.Name(attrPK))).Build()
	if err != nil {
		return err
	}
	_, err = s.db.UpdateItem(ctx, &dynamodb.UpdateItemInput{TableName: aws.String(s.table), Key: roleKey(roleID).attributes(),
		UpdateExpression: expr.Update(), ConditionExpression: expr.Condition(),
		ExpressionAttributeNames: expr.Names(), ExpressionAttributeValues: expr.Values()})
	if err != nil {
		return fmt.Errorf("mark role %d listed: %w", roleID, err)
	}
	return nil
}

// relistRoleMembers gives memberships the current copy of their users and
// their side key (sided: the gsi1 sort key each has, by user id).
func (s *Store) relistRoleMembers(ctx context.Context, urs []domain.UserRole, sided map[int64]string) error {
	keys := make([]itemKey, len(urs))
	for i, ur := range urs {
		keys[i] = userKey(ur.UserID)
	}
	items, err := s.batchGet(ctx, keys)
	if err != nil {
		return err
	}
	users := map[int64]domain.User{}
	for _, av := range items {
		u, err := decodeWith[userRecord, domain.User](av)
		if err != nil {
			return err
		}
		users[u.ID] = u
	}
	for _, ur := range urs {
		u, ok := users[ur.UserID]
		if !ok {
			continue
		}
		if relisted := (domain.UserRole{UserID: ur.UserID, Authority: ur.Authority, GuestRoleIncluded: ur.GuestRoleIncluded,
			Listing: domain.ListingOf(u)}); ur.Listing == relisted.Listing && sided[ur.UserID] == memberSideSK(relisted) {
			continue
		}
		if err := s.relistOne(ctx, ur, u); err != nil {
			return err
		}
	}
	return nil
}

// relistOne writes one membership's copy at the version read, reading the
// membership (and the user) again when either changed in between.
func (s *Store) relistOne(ctx context.Context, ur domain.UserRole, u domain.User) error {
	for attempt := 0; ; attempt++ {
		t := s.newTxn()
		t.apply(projectChanges(projectionState{}, relistedMembership(ur, u)), 0)
		err := t.commit(ctx)
		if err == nil || attempt == 2 {
			return err
		}
		var nerr error
		if ur, nerr = s.GetUserRole(ctx, ur.UserID, ur.RoleID); nerr != nil {
			if domain.KindOf(nerr) == domain.KindNotFound {
				return nil // removed meanwhile
			}
			return nerr
		}
		if u, nerr = s.GetUser(ctx, ur.UserID); nerr != nil {
			if domain.KindOf(nerr) == domain.KindNotFound {
				return nil
			}
			return nerr
		}
		if ur.Listing == domain.ListingOf(u) {
			return nil
		}
	}
}

// listInvitationLinksOfRole gives the role's invitation links without a
// copy the copy of their invitation.
func (s *Store) listInvitationLinksOfRole(ctx context.Context, roleID int64) error {
	in, err := s.partitionQuery(indexGSI1, prefixRole+id(roleID), sortKeyPrefix(prefixInvitation))
	if err != nil {
		return err
	}
	links, err := s.queryAll(ctx, in)
	if err != nil {
		return err
	}
	var uncopied []int64
	for _, av := range links {
		var link invitationRoleRecord
		if err := unmarshal(av, &link); err != nil {
			return err
		}
		if !link.Listed {
			uncopied = append(uncopied, link.InvitationID)
		}
	}
	return s.copyInvitationLinks(ctx, roleID, uncopied)
}

// copyInvitationLinks writes the role's links of the invitations ids with
// the copy of their invitation. The condition keeps a link that was
// deleted, or rewritten by a newer write, as it is.
func (s *Store) copyInvitationLinks(ctx context.Context, roleID int64, ids []int64) error {
	if len(ids) == 0 {
		return nil
	}
	keys := make([]itemKey, 0, len(ids))
	for _, invID := range ids {
		keys = append(keys, invitationKey(invID))
	}
	items, err := s.batchGet(ctx, keys)
	if err != nil {
		return err
	}
	cond := expression.AttributeExists(expression.Name(attrPK)).And(expression.AttributeNotExists(expression.Name("listed")))
	for _, av := range items {
		inv, err := decodeInvitation(av)
		if err != nil {
			return err
		}
		t := s.newTxn()
		t.putIf(newInvitationRoleRecord(inv, roleID), cond, nil)
		if err := t.commit(ctx); err != nil && !errors.Is(err, domain.ErrVersionConflict) {
			return err
		}
	}
	return nil
}
