package dynamo

import (
	"context"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"

	"github.com/edu-invite/invite/shared/domain"
)

// AllMembersPageOfRole reads one page of every membership of a role with
// its whole user (U10, paged), by name (descending: from the end) from the
// role's members index (gsi4 ROLE#<id> UR#): together, the role
// (consistent GetItem) and the index up to the page, the offset skipped
// with keys only (some 10,000 keys a 1 MB request); then one BatchGetItem
// of the page's users and the role's member counter (the total; a page of
// more than 96 members takes one more). So a page costs the same in a role
// of 50,000 members as in one of 50, plus one small request per 10,000
// members skipped. page.Next is the token of the page after it
// (AllMembersPageOfRoleAfter), "" when no member follows. A missing role
// is NotFound.
func (s *Store) AllMembersPageOfRole(ctx context.Context, roleID int64, descending bool, offset, size int) (role domain.Role, page domain.Page[domain.Member], err error) {
	return s.allMembersPage(ctx, roleID, descending, size, func(ctx context.Context) ([]item, int, error) {
		return s.membersIndexWindow(ctx, roleID, descending, offset, size)
	})
}

// AllMembersPageOfRoleAfter is AllMembersPageOfRole from a page token (the
// Next of the page before) rather than an offset: the index is read right
// after the token's member, so a page costs the same at any depth. The
// total is the role's member counter. A token of another role or
// direction, of a side (MembersPageOfRoleAfter), or a mangled one is
// Invalid.
func (s *Store) AllMembersPageOfRoleAfter(ctx context.Context, roleID int64, descending bool, after string, size int) (role domain.Role, page domain.Page[domain.Member], err error) {
	start, err := decodeMemberWalk(after, roleID, walkAll, descending, []string{prefixUserRole})
	if err != nil {
		return domain.Role{}, domain.Page[domain.Member]{}, err
	}
	return s.allMembersPage(ctx, roleID, descending, size, func(ctx context.Context) ([]item, int, error) {
		in, err := s.partitionQuery(indexGSI4, membersIndexPK(roleID), sortKeyPrefix(prefixUserRole))
		if err != nil {
			return nil, 0, err
		}
		in.ScanIndexForward = aws.Bool(!descending)
		in.ExclusiveStartKey = walkStartKey(roleID, start[0], attrGSI4PK, attrGSI4SK)
		items, err := queryUpTo(ctx, s, in, size+1, asItem)
		if err != nil {
			return nil, 0, fmt.Errorf("members of role %d: %w", roleID, err)
		}
		return items, -1, nil // how many came before the token is not known
	})
}

// allMembersPage reads the role and a window of its members index
// together (size+1 members: one more says whether a member follows; before
// is how many came before them, -1 unknown), then the page's users and
// the member counter.
func (s *Store) allMembersPage(ctx context.Context, roleID int64, descending bool, size int, window func(context.Context) ([]item, int, error)) (role domain.Role, page domain.Page[domain.Member], err error) {
	var items []item
	before := 0
	err = together(ctx, func(gctx context.Context) error {
		var err error
		role, err = s.getRoleRecord(gctx, roleID)
		return err
	}, func(gctx context.Context) error {
		var err error
		items, before, err = window(gctx)
		return err
	})
	if err != nil {
		return domain.Role{}, domain.Page[domain.Member]{}, err
	}
	more := len(items) > size
	if more {
		items = items[:size]
		if page.Next, err = encodeMemberWalk(roleID, walkAll, descending, []string{stringAttr(items[size-1], attrGSI4SK)}); err != nil {
			return domain.Role{}, domain.Page[domain.Member]{}, err
		}
	}
	urs, err := decodeUserRoles(items)
	if err != nil {
		return domain.Role{}, domain.Page[domain.Member]{}, err
	}
	keys := make([]itemKey, 0, len(urs)+roleMemberCountShards)
	for _, ur := range urs {
		keys = append(keys, userKey(ur.UserID))
	}
	keys = append(keys, memberCountKeys([]int64{roleID})...)
	read, err := s.batchGet(ctx, keys)
	if err != nil {
		return domain.Role{}, domain.Page[domain.Member]{}, err
	}
	users := make(map[int64]domain.User, len(urs))
	for _, av := range read {
		if stringAttr(av, "entity") == entityRoleMemberCount {
			var rec roleMemberCountRecord
			if err := unmarshal(av, &rec); err != nil {
				return domain.Role{}, domain.Page[domain.Member]{}, err
			}
			page.Total += rec.Value
			continue
		}
		u, err := decodeWith[userRecord, domain.User](av)
		if err != nil {
			return domain.Role{}, domain.Page[domain.Member]{}, err
		}
		users[u.ID] = u
	}
	for _, ur := range urs {
		// A member whose user is gone (deleted a moment ago) is left out.
		if u, ok := users[ur.UserID]; ok {
			page.Items = append(page.Items, domain.Member{UserRole: ur, User: u})
		}
	}
	if !more && before >= 0 {
		// The page reached the index's end: the members are exactly these
		// and those before them (the counter may lag a write a moment ago).
		page.Total = int64(before + len(items))
	}
	return role, page, nil
}

// membersIndexWindow reads size+1 members of a role's members index after
// skipping offset of them (one more than the page says whether a member
// follows it): the skipped ones as keys only. before is how many were
// skipped (fewer than offset past the last member).
func (s *Store) membersIndexWindow(ctx context.Context, roleID int64, descending bool, offset, size int) (items []item, before int, err error) {
	partition := membersIndexPK(roleID)
	in, err := s.partitionQuery(indexGSI4, partition, sortKeyPrefix(prefixUserRole))
	if err != nil {
		return nil, 0, err
	}
	in.ScanIndexForward = aws.Bool(!descending)
	if offset > 0 {
		skip, err := s.partitionQuery(indexGSI4, partition, sortKeyPrefix(prefixUserRole))
		if err != nil {
			return nil, 0, err
		}
		skip.ScanIndexForward = aws.Bool(!descending)
		project(skip, attrPK, attrSK, attrGSI4PK, attrGSI4SK)
		skipped, err := queryUpTo(ctx, s, skip, offset, asItem)
		if err != nil {
			return nil, 0, fmt.Errorf("members of role %d: %w", roleID, err)
		}
		if len(skipped) < offset {
			return nil, len(skipped), nil // past the last member
		}
		in.ExclusiveStartKey = skipped[offset-1]
	}
	if items, err = queryUpTo(ctx, s, in, size+1, asItem); err != nil {
		return nil, 0, fmt.Errorf("members of role %d: %w", roleID, err)
	}
	return items, offset, nil
}
