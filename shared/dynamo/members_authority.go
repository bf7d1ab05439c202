package dynamo

import (
	"context"
	"fmt"
	"slices"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/edu-invite/invite/shared/domain"
)

// MembersOfRoleWithAuthority reads the memberships of a role that have one
// of the authorities, each with its whole user. The side keys of gsi1
// (memberSideSK) say only which of U9's sides a membership is on, not its
// authority, so this reads the classes that can hold those authorities
// (the non-guests N and both B, and the guests G only when GUEST is asked
// for), the authority filtered by DynamoDB: a role's guests, most of a
// large role, are never read for its managers. Its cost grows with the
// role's non-guest members (one Query per class and 1 MB), then one
// BatchGetItem per 100 matches. Selecting by authority in the key would
// take another class per authority: a change of the membership layout.
// No domain error (none: empty, also for a missing role).
func (s *Store) MembersOfRoleWithAuthority(ctx context.Context, roleID int64, authorities ...domain.Authority) ([]domain.Member, error) {
	if len(authorities) == 0 {
		return nil, nil
	}
	classes := []string{classNonGuests, classBoth}
	if slices.Contains(authorities, domain.Guest) {
		classes = append(classes, classGuests)
	}
	values := make([]expression.OperandBuilder, len(authorities))
	for i, a := range authorities {
		values[i] = expression.Value(string(a))
	}
	filter := expression.Name("authority").In(values[0], values[1:]...)
	var urs []domain.UserRole
	for _, class := range classes {
		key := expression.Key(attrGSI1PK).Equal(expression.Value(prefixRole + id(roleID))).
			And(expression.KeyBeginsWith(expression.Key(attrGSI1SK), prefixUserRole+class))
		expr, err := expression.NewBuilder().WithKeyCondition(key).WithFilter(filter).Build()
		if err != nil {
			return nil, fmt.Errorf("members of role %d by authority: %w", roleID, err)
		}
		in := &dynamodb.QueryInput{
			TableName:                 aws.String(s.table),
			IndexName:                 aws.String(indexGSI1),
			KeyConditionExpression:    expr.KeyCondition(),
			FilterExpression:          expr.Filter(),
			ExpressionAttributeNames:  expr.Names(),
			ExpressionAttributeValues: expr.Values(),
		}
		for {
			out, err := s.db.Query(ctx, in)
			if err != nil {
				return nil, fmt.Errorf("members of role %d by authority: %w", roleID, err)
			}
			page, err := decodeUserRoles(out.Items)
			if err != nil {
				return nil, err
			}
			urs = append(urs, page...)
			if len(out.LastEvaluatedKey) == 0 {
				break
			}
			in.ExclusiveStartKey = out.LastEvaluatedKey
		}
	}
	return s.withUsers(ctx, urs)
}

// withUsers reads the users of memberships (BatchGetItem, 100 keys a
// request) and pairs them; a membership whose user is gone is left out.
func (s *Store) withUsers(ctx context.Context, urs []domain.UserRole) ([]domain.Member, error) {
	keys := make([]itemKey, 0, len(urs))
	for _, ur := range urs {
		keys = append(keys, userKey(ur.UserID))
	}
	items, err := s.batchGet(ctx, keys)
	if err != nil {
		return nil, err
	}
	users := make(map[int64]domain.User, len(items))
	for _, av := range items {
		u, err := decodeWith[userRecord, domain.User](av)
		if err != nil {
			return nil, err
		}
		users[u.ID] = u
	}
	members := make([]domain.Member, 0, len(urs))
	for _, ur := range urs {
		if u, ok := users[ur.UserID]; ok {
			members = append(members, domain.Member{UserRole: ur, User: u})
		}
	}
	return members, nil
}
