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

// guestSideFilter is U9's split of a role's members: its guests (authority
// GUEST, or a higher authority whose membership includes the guest role)
// or its non-guests (any authority but GUEST). A manager with the guest
// role is on both sides.
func guestSideFilter(guests bool) expression.ConditionBuilder {
	authority := expression.Name("authority")
	guest := expression.Value(string(domain.Guest))
	if guests {
		return authority.Equal(guest).Or(expression.Name("guestRoleIncluded").Equal(expression.Value(true)))
	}
	return authority.NotEqual(guest)
}

// MembersPageOfRole implements domain.MemberStore: it reads one page of a role's guests (or non-guests) from
// its members index, by name (descending: from the end), skipping offset
// of them: the Query stops once offset+size members of that side are read,
// so a page's cost grows with its position and with the other side's
// members before it, never with the role's size. The total is the side's
// counter (one BatchGetItem of its shards, roles_members_count.go), trusted:
// a role of an older version, whose side counters are not exact, counts
// right once RepairIndexes has recounted it (RecountMembersOfRole), there
// is no second read path. The role is read consistently in the same round
// trip.
func (s *Store) MembersPageOfRole(ctx context.Context, roleID int64, guests, descending bool, offset, size int) (role domain.Role, page domain.Page[domain.Member], err error) {
	var items []item
	err = together(ctx, func(gctx context.Context) error {
		var err error
		role, err = s.getRoleRecord(gctx, roleID)
		return err
	}, func(gctx context.Context) error {
		var err error
		items, err = s.membersOfSide(gctx, roleID, guests, descending, offset+size)
		return err
	})
	if err != nil {
		return domain.Role{}, domain.Page[domain.Member]{}, err
	}
	if offset < len(items) {
		if page.Items, err = listedMembers(items[offset:]); err != nil {
			return domain.Role{}, domain.Page[domain.Member]{}, err
		}
	}
	if len(items) < offset+size {
		// The Query read the whole index: the side has exactly these.
		page.Total = int64(len(items))
		return role, page, nil
	}
	if page.Total, err = s.countSideOfRole(ctx, roleID, guests); err != nil {
		return domain.Role{}, domain.Page[domain.Member]{}, err
	}
	return role, page, nil
}

// sideQuery is a Query of the members of a role's index on one side.
func (s *Store) sideQuery(roleID int64, guests bool) (*expression.Expression, error) {
	key := expression.Key(attrGSI4PK).Equal(expression.Value(membersIndexPK(roleID))).
		And(expression.KeyBeginsWith(expression.Key(attrGSI4SK), prefixUserRole))
	expr, err := expression.NewBuilder().WithKeyCondition(key).WithFilter(guestSideFilter(guests)).Build()
	if err != nil {
		return nil, fmt.Errorf("members of role %d: %w", roleID, err)
	}
	return &expr, nil
}

// membersOfSide reads the first want members of a side, in index order.
func (s *Store) membersOfSide(ctx context.Context, roleID int64, guests, descending bool, want int) ([]item, error) {
	expr, err := s.sideQuery(roleID, guests)
	if err != nil {
		return nil, err
	}
	var out []item
	var start map[string]types.AttributeValue
	for len(out) < want {
		res, err := s.db.Query(ctx, &dynamodb.QueryInput{
			TableName: aws.String(s.table), IndexName: aws.String(indexGSI4),
			KeyConditionExpression: expr.KeyCondition(), FilterExpression: expr.Filter(),
			ExpressionAttributeNames: expr.Names(), ExpressionAttributeValues: expr.Values(),
			ScanIndexForward: aws.Bool(!descending), ExclusiveStartKey: start,
			// Limit counts items read before the filter: read what the
			// page still needs, at least a small batch (the other side's
			// members in between are read and dropped).
			Limit: aws.Int32(int32(max(want-len(out), 25))),
		})
		if err != nil {
			return nil, fmt.Errorf("query members of role %d: %w", roleID, err)
		}
		out = append(out, res.Items...)
		if len(res.LastEvaluatedKey) == 0 {
			break
		}
		start = res.LastEvaluatedKey
	}
	return out[:min(len(out), want)], nil
}
