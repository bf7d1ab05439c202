package dynamo

import (
	"context"
	"fmt"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
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

// MembersPageOfRole reads one page of a role's guests (or non-guests) by
// name (descending: from the end), skipping offset of them, from the
// role's memberships by side (gsi1, memberSideSK): the side's two classes
// are read by two Queries at once and merged in name order, so a page
// reads only members of its side, never the other side. A page near the
// start reads each class up to offset+size items; a deep one (offset of at
// least sideSkipFrom) skips the offset with keys only, then reads the page
// (sideWindow). The total is the side's counter (one BatchGetItem of its
// shards, roles_members_count.go), unless the Queries read the whole side.
// It is trusted: a role of an older version, whose side counters are not
// exact, counts right once RepairIndexes has recounted it
// (RecountMembersOfRole); there is no second read path. The role is read
// consistently in the same round trip.
func (s *Store) MembersPageOfRole(ctx context.Context, roleID int64, guests, descending bool, offset, size int) (role domain.Role, page domain.Page[domain.Member], err error) {
	var items []item
	var whole bool
	var total int
	err = together(ctx, func(gctx context.Context) error {
		var err error
		role, err = s.getRoleRecord(gctx, roleID)
		return err
	}, func(gctx context.Context) error {
		var err error
		items, whole, total, err = s.sideWindow(gctx, roleID, guests, descending, offset, size)
		return err
	})
	if err != nil {
		return domain.Role{}, domain.Page[domain.Member]{}, err
	}
	if page.Items, err = listedMembers(items); err != nil {
		return domain.Role{}, domain.Page[domain.Member]{}, err
	}
	if len(page.Items) == 0 {
		page.Items = nil
	}
	if whole {
		// The Queries read to the side's end: it has exactly these.
		page.Total = int64(total)
		return role, page, nil
	}
	if page.Total, err = s.countSideOfRole(ctx, roleID, guests); err != nil {
		return domain.Role{}, domain.Page[domain.Member]{}, err
	}
	return role, page, nil
}

// sideSkipFrom is the offset from which a page of a side skips the
// members before it with keys only (one more round trip) rather than
// reading them whole: the skip still reads (and is charged for) every
// item it passes, DynamoDB's 1 MB a request counting whole items, but
// transfers and decodes keys only.
const sideSkipFrom = 100

// sideWindow reads the page of a side after offset of its members: the
// page's items, whether the Queries reached the side's end (whole), and
// then how many members the side has (total).
func (s *Store) sideWindow(ctx context.Context, roleID int64, guests, descending bool, offset, size int) (items []item, whole bool, total int, err error) {
	if offset < sideSkipFrom {
		items, whole, err = s.membersOfSide(ctx, roleID, guests, descending, offset+size, nil, false)
		if offset >= len(items) {
			return nil, whole, len(items), err
		}
		return items[offset:], whole, len(items), err
	}
	keys, keysWhole, err := s.membersOfSide(ctx, roleID, guests, descending, offset, nil, true)
	if err != nil {
		return nil, false, 0, err
	}
	if len(keys) < offset {
		return nil, keysWhole, len(keys), nil // past the side's last member
	}
	// Each class goes on after the last of its keys the offset took.
	classes := classesOfSide(guests)
	starts := make([]item, len(classes))
	for _, k := range keys {
		for i, c := range classes {
			if strings.HasPrefix(stringAttr(k, attrGSI1SK), prefixUserRole+c) {
				starts[i] = k
			}
		}
	}
	items, whole, err = s.membersOfSide(ctx, roleID, guests, descending, size, starts, false)
	return items, whole, offset + len(items), err
}

// membersOfSide reads the first want members of a side in name order (the
// members index's), each class after its start item (nil: from its
// start): each of the side's classes up to want items, the two Queries at
// once, merged; keysOnly reads their keys alone. whole: the side has no
// more than these.
func (s *Store) membersOfSide(ctx context.Context, roleID int64, guests, descending bool, want int, starts []item, keysOnly bool) (members []item, whole bool, err error) {
	classes := classesOfSide(guests)
	read := make([][]item, len(classes))
	query := func(i int) func(context.Context) error {
		return func(ctx context.Context) error {
			in, err := s.partitionQuery(indexGSI1, prefixRole+id(roleID), sortKeyPrefix(prefixUserRole+classes[i]))
			if err != nil {
				return err
			}
			in.ScanIndexForward = aws.Bool(!descending)
			if keysOnly {
				project(in, attrPK, attrSK, attrGSI1PK, attrGSI1SK)
			}
			if starts != nil && starts[i] != nil {
				in.ExclusiveStartKey = map[string]types.AttributeValue{}
				for _, name := range []string{attrPK, attrSK, attrGSI1PK, attrGSI1SK} {
					in.ExclusiveStartKey[name] = starts[i][name]
				}
			}
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
