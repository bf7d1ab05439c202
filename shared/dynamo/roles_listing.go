package dynamo

import (
	"context"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/edu-invite/invite/shared/domain"
)

// CountUserRolesOfRole counts a role's memberships: its member counter
// (roles_members_count.go).
func (s *Store) CountUserRolesOfRole(ctx context.Context, roleID int64) (int64, error) {
	counts, err := s.CountMembersOfRoles(ctx, []int64{roleID})
	return counts[roleID], err
}

// ListInvitationsOfInviter returns the invitations a user sent, by id:
// Query gsi2 INVITER#<userId> (the index holds the whole invitation).
func (s *Store) ListInvitationsOfInviter(ctx context.Context, userID int64) ([]domain.Invitation, error) {
	return s.invitationsInGSI2(ctx, inviterPK(userID))
}

// invitationsInGSI2 reads the invitations of one gsi2 partition, by id.
func (s *Store) invitationsInGSI2(ctx context.Context, partition string) ([]domain.Invitation, error) {
	in, err := s.partitionQuery(indexGSI2, partition, sortKeyPrefix(prefixInvitation))
	if err != nil {
		return nil, err
	}
	items, err := s.queryAll(ctx, in)
	if err != nil {
		return nil, err
	}
	return invitationsByID(items)
}

// ReissueInvitation replaces an invitation (version + 1) if it is still OPEN
// at inv.Version; its role links carry the invitation's TTL and are
// rewritten with it, in the same transaction.
func (s *Store) ReissueInvitation(ctx context.Context, inv domain.Invitation) error {
	if inv.ID == 0 || inv.HashDigest == "" {
		return domain.Invalidf("invitation without id or hash digest")
	}
	t := s.newTxn()
	stillOpen := versionIs(inv.Version).And(expression.Name("status").Equal(expression.Value(string(domain.InvitationOpen))))
	t.putIf(newInvitationRecord(inv, inv.Version+1), stillOpen, s.acceptedInvitationFailure(inv))
	t.applyChanges(changedInvitation(inv))
	return t.commit(ctx)
}

// ListInvitationsOfRemoteAPIUser returns the invitations a program sent,
// by id: Query gsi2 INVITERAPI#<name>. Invitations written before this
// index key existed are found once they are written again (resend).
func (s *Store) ListInvitationsOfRemoteAPIUser(ctx context.Context, name string) ([]domain.Invitation, error) {
	return s.invitationsInGSI2(ctx, remoteInviterPK(name))
}

func inviterPK(userID int64) string { return "INVITER#" + id(userID) }

func remoteInviterPK(name string) string { return "INVITERAPI#" + name }

// ListOpenInvitations returns a page of every open invitation, by creation
// time (newest first when descending), and how many there are: Query gsi4
// INVOPEN with Limit, skipping the pages before (keys only, 1 MB per
// request), and a COUNT query of the partition for the total.
func (s *Store) ListOpenInvitations(ctx context.Context, offset, limit int, descending bool) ([]domain.Invitation, int64, error) {
	total, err := s.countPartition(ctx, indexGSI4, openInvitationsPK)
	if err != nil || limit <= 0 || int64(offset) >= total {
		return nil, total, err
	}
	in, err := s.partitionQuery(indexGSI4, openInvitationsPK, nil)
	if err != nil {
		return nil, 0, err
	}
	in.TableName = aws.String(s.table)
	in.ScanIndexForward = aws.Bool(!descending)
	if offset > 0 {
		// Walk past the earlier pages reading keys only.
		skip := *in
		skip.ProjectionExpression = aws.String("#pk, #sk, #gpk, #gsk")
		skip.ExpressionAttributeNames = map[string]string{"#pk": attrPK, "#sk": attrSK, "#gpk": attrGSI4PK, "#gsk": attrGSI4SK}
		for k, v := range in.ExpressionAttributeNames {
			skip.ExpressionAttributeNames[k] = v
		}
		for left := offset; left > 0; {
			skip.Limit = aws.Int32(int32(left))
			out, err := s.db.Query(ctx, &skip)
			if err != nil {
				return nil, 0, fmt.Errorf("query open invitations: %w", err)
			}
			left -= len(out.Items)
			if left == 0 {
				in.ExclusiveStartKey = out.LastEvaluatedKey
			}
			if len(out.LastEvaluatedKey) == 0 {
				if left > 0 {
					return nil, total, nil
				}
				break
			}
			skip.ExclusiveStartKey = out.LastEvaluatedKey
		}
		if len(in.ExclusiveStartKey) == 0 {
			return nil, total, nil
		}
	}
	invs, err := queryUpTo(ctx, s, in, limit, decodeInvitation)
	return invs, total, err
}

// countPartition counts the items of one partition of an index.
func (s *Store) countPartition(ctx context.Context, index, partition string) (int64, error) {
	in, err := s.partitionQuery(index, partition, nil)
	if err != nil {
		return 0, err
	}
	return s.count(ctx, in, partition)
}

// count runs a query with Select COUNT, following LastEvaluatedKey: no
// items are returned, but DynamoDB still reads them (1 MB per request).
func (s *Store) count(ctx context.Context, in *dynamodb.QueryInput, what string) (int64, error) {
	in.TableName = aws.String(s.table)
	in.Select = types.SelectCount
	var n int64
	for {
		out, err := s.db.Query(ctx, in)
		if err != nil {
			return 0, fmt.Errorf("count %s: %w", what, err)
		}
		n += int64(out.Count)
		if len(out.LastEvaluatedKey) == 0 {
			return n, nil
		}
		in.ExclusiveStartKey = out.LastEvaluatedKey
	}
}
