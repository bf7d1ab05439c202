package dynamo

import (
	"context"
	"fmt"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"

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
// consistently in the same round trip. page.Next is the token of the page
// after it (MembersPageOfRoleAfter), "" when no member follows.
func (s *Store) MembersPageOfRole(ctx context.Context, roleID int64, guests, descending bool, offset, size int) (role domain.Role, page domain.Page[domain.Member], err error) {
	return s.sidePage(ctx, roleID, guests, descending, func(ctx context.Context) (sideRead, error) {
		return s.sideWindow(ctx, roleID, guests, descending, offset, size)
	})
}

// MembersPageOfRoleAfter is MembersPageOfRole from a page token (the Next
// of the page before) rather than an offset: the side's two Queries start
// right after the token's positions, so a page costs the same at any
// depth. The total is the side's counter. A token of another role, side
// or direction, or a mangled one, is Invalid.
func (s *Store) MembersPageOfRoleAfter(ctx context.Context, roleID int64, guests, descending bool, after string, size int) (role domain.Role, page domain.Page[domain.Member], err error) {
	starts, err := decodeMemberWalk(after, roleID, walkOfSide(guests), descending, sidePrefixes(guests))
	if err != nil {
		return domain.Role{}, domain.Page[domain.Member]{}, err
	}
	return s.sidePage(ctx, roleID, guests, descending, func(ctx context.Context) (sideRead, error) {
		read, err := s.sideFrom(ctx, roleID, guests, descending, starts, size)
		read.whole = false // how many came before the token is not known: the counter
		return read, err
	})
}

// sidePage reads the role and a window of a side together, then the
// side's counter unless the window read the whole side.
func (s *Store) sidePage(ctx context.Context, roleID int64, guests, descending bool, window func(context.Context) (sideRead, error)) (role domain.Role, page domain.Page[domain.Member], err error) {
	var read sideRead
	err = together(ctx, func(gctx context.Context) error {
		var err error
		role, err = s.getRoleRecord(gctx, roleID)
		return err
	}, func(gctx context.Context) error {
		var err error
		read, err = window(gctx)
		return err
	})
	if err != nil {
		return domain.Role{}, domain.Page[domain.Member]{}, err
	}
	if page.Items, err = listedMembers(read.items); err != nil {
		return domain.Role{}, domain.Page[domain.Member]{}, err
	}
	if len(page.Items) == 0 {
		page.Items = nil
	}
	if read.more {
		if page.Next, err = encodeMemberWalk(roleID, walkOfSide(guests), descending, read.after); err != nil {
			return domain.Role{}, domain.Page[domain.Member]{}, err
		}
	}
	if read.whole {
		// The Queries read to the side's end: it has exactly these.
		page.Total = int64(read.total)
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

// sideRead is a window of a side: the page's items; whole when the
// Queries reached the side's end, and then total is how many members it
// has; more when a member follows the page; after, per class of the side,
// the gsi1 sort key of its last member up to the page's end ("" none), the
// next page's positions.
type sideRead struct {
	items []item
	whole bool
	total int
	more  bool
	after []string
}

// sidePrefixes are the gsi1 sort key prefixes of a side's classes.
func sidePrefixes(guests bool) []string {
	classes := classesOfSide(guests)
	prefixes := make([]string, len(classes))
	for i, c := range classes {
		prefixes[i] = prefixUserRole + c
	}
	return prefixes
}

// positionsAfter are the positions of a side's classes after passed (in
// merged order) from the positions before them.
func positionsAfter(guests bool, before []string, passed []item) []string {
	prefixes := sidePrefixes(guests)
	after := make([]string, len(prefixes))
	copy(after, before)
	for _, it := range passed {
		sk := stringAttr(it, attrGSI1SK)
		for i, p := range prefixes {
			if strings.HasPrefix(sk, p) {
				after[i] = sk
			}
		}
	}
	return after
}

// sideWindow reads the page of a side after offset of its members.
func (s *Store) sideWindow(ctx context.Context, roleID int64, guests, descending bool, offset, size int) (sideRead, error) {
	if offset < sideSkipFrom {
		// One more than the page says whether a member follows it.
		items, whole, err := s.membersOfSide(ctx, roleID, guests, descending, offset+size+1, nil, false)
		if err != nil {
			return sideRead{}, err
		}
		end := min(len(items), offset+size)
		read := sideRead{whole: whole, total: len(items), more: len(items) > end, after: positionsAfter(guests, nil, items[:end])}
		if offset < end {
			read.items = items[offset:end]
		}
		return read, nil
	}
	keys, keysWhole, err := s.membersOfSide(ctx, roleID, guests, descending, offset, nil, true)
	if err != nil {
		return sideRead{}, err
	}
	if len(keys) < offset {
		return sideRead{whole: keysWhole, total: len(keys)}, nil // past the side's last member
	}
	// Each class goes on after the last of its keys the offset took.
	read, err := s.sideFrom(ctx, roleID, guests, descending, positionsAfter(guests, nil, keys), size)
	read.total += offset
	return read, err
}

// sideFrom reads the page of a side after the positions of its classes
// (as sideRead.after; "" from the class's start).
func (s *Store) sideFrom(ctx context.Context, roleID int64, guests, descending bool, starts []string, size int) (sideRead, error) {
	items, whole, err := s.membersOfSide(ctx, roleID, guests, descending, size+1, starts, false)
	if err != nil {
		return sideRead{}, err
	}
	end := min(len(items), size)
	return sideRead{items: items[:end], whole: whole, total: len(items), more: len(items) > end,
		after: positionsAfter(guests, starts, items[:end])}, nil
}

// membersOfSide reads the first want members of a side in name order (the
// members index's), each class after its start position (a gsi1 sort key;
// nil or "": from its start): each of the side's classes up to want items,
// the two Queries at once, merged; keysOnly reads their keys alone. whole:
// the side has no more than these.
func (s *Store) membersOfSide(ctx context.Context, roleID int64, guests, descending bool, want int, starts []string, keysOnly bool) (members []item, whole bool, err error) {
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
			if starts != nil && starts[i] != "" {
				in.ExclusiveStartKey = walkStartKey(roleID, starts[i], attrGSI1PK, attrGSI1SK)
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
