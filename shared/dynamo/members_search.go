package dynamo

import (
	"context"
	"fmt"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

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

// MembersPageOfRole reads one page of a role's guests (or non-guests) by
// name (descending: from the end), skipping offset of them, from the
// role's memberships by side (gsi1, memberSideSK): the side's two classes
// are read by two Queries at once, each up to offset+size items, and
// merged in name order, so a page reads only members of its side and its
// cost grows with its position, never with the role's size or the other
// side. The total is the side's counter (one BatchGetItem of its shards,
// roles_members_count.go), unless the Queries read the whole side; only a
// role of an older version, whose side counters are not exact until
// RepairIndexes recounts it, is counted by a COUNT Query of the index. The
// role is read consistently in the same round trip.
func (s *Store) MembersPageOfRole(ctx context.Context, roleID int64, guests, descending bool, offset, size int) (role domain.Role, page domain.Page[domain.Member], err error) {
	var items []item
	var whole bool
	err = together(ctx, func(gctx context.Context) error {
		var err error
		role, err = s.getRoleRecord(gctx, roleID)
		return err
	}, func(gctx context.Context) error {
		var err error
		items, whole, err = s.membersOfSide(gctx, roleID, guests, descending, offset+size)
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
	if whole {
		// The Queries read the whole side: it has exactly these.
		page.Total = int64(len(items))
		return role, page, nil
	}
	total, exact, err := s.countSideOfRole(ctx, roleID, guests)
	if err != nil {
		return domain.Role{}, domain.Page[domain.Member]{}, err
	}
	if !exact { // a role of an older version, until RepairIndexes recounts it
		if total, err = s.countMembersOfSide(ctx, roleID, guests); err != nil {
			return domain.Role{}, domain.Page[domain.Member]{}, err
		}
	}
	page.Total = total
	return role, page, nil
}

// membersOfSide reads the first want members of a side in name order (the
// members index's): each of the side's classes up to want items, the two
// Queries at once, merged. whole: the side has no more than these.
func (s *Store) membersOfSide(ctx context.Context, roleID int64, guests, descending bool, want int) (members []item, whole bool, err error) {
	classes := classesOfSide(guests)
	read := make([][]item, len(classes))
	query := func(i int) func(context.Context) error {
		return func(ctx context.Context) error {
			in, err := s.partitionQuery(indexGSI1, prefixRole+id(roleID), sortKeyPrefix(prefixUserRole+classes[i]))
			if err != nil {
				return err
			}
			in.ScanIndexForward = aws.Bool(!descending)
			read[i], err = queryUpTo(ctx, s, in, want, asItem)
			return err
		}
	}
	if err := together(ctx, query(0), query(1)); err != nil {
		return nil, false, fmt.Errorf("members of role %d: %w", roleID, err)
	}
	whole = len(read[0]) < want && len(read[1]) < want
	members = mergeBySideKey(read[0], read[1], descending)
	return members[:min(len(members), want)], whole && len(members) < want, nil
}

// mergeBySideKey merges two runs of memberships, each in gsi1 order, by
// their place after the class (name, then user id).
func mergeBySideKey(a, b []item, descending bool) []item {
	place := func(it item) string {
		sk := stringAttr(it, attrGSI1SK)
		return sk[min(len(sk), len(prefixUserRole)+len(classGuests)):]
	}
	out := make([]item, 0, len(a)+len(b))
	for len(a) > 0 && len(b) > 0 {
		c := strings.Compare(place(a[0]), place(b[0]))
		if descending {
			c = -c
		}
		if c <= 0 {
			out, a = append(out, a[0]), a[1:]
		} else {
			out, b = append(out, b[0]), b[1:]
		}
	}
	return append(append(out, a...), b...)
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

// countMembersOfSide counts a side of a role's index (Select COUNT).
func (s *Store) countMembersOfSide(ctx context.Context, roleID int64, guests bool) (int64, error) {
	expr, err := s.sideQuery(roleID, guests)
	if err != nil {
		return 0, err
	}
	return s.count(ctx, &dynamodb.QueryInput{
		IndexName:              aws.String(indexGSI4),
		KeyConditionExpression: expr.KeyCondition(), FilterExpression: expr.Filter(),
		ExpressionAttributeNames: expr.Names(), ExpressionAttributeValues: expr.Values(),
	}, fmt.Sprintf("members of role %d", roleID))
}
