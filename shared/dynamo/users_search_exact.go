package dynamo

import (
	"context"
	"strconv"
	"strings"

	"github.com/edu-invite/invite/shared/domain"
)

// searchByIdentifier answers a query that is one whole identifier: a user
// id (digits), a sub (has a colon, no @), or an e-mail address or eppn
// (has an @). It reads the identifier's key (GetItem of the user, of its
// USERSUB# item, or a Query of its UEXACT# partition), then one
// BatchGetItem of the users and, for an organization, their organization
// items: two requests at most, whatever the table holds. ok is false when
// the query is no identifier or identifies no one, and the word search
// answers instead (a partial address is words).
func (s *Store) searchByIdentifier(ctx context.Context, organizationGUID, query string, page domain.PageRequest) (domain.Page[domain.FoundUser], bool, error) {
	q := strings.TrimSpace(query)
	if q == "" || strings.ContainsFunc(q, func(r rune) bool { return r == ' ' || r == '\t' }) {
		return domain.Page[domain.FoundUser]{}, false, nil
	}
	var ids []int64
	switch {
	case strings.Contains(q, "@"):
		v := identifierOf(q)
		if len(v) > maxIdentifierLength {
			return domain.Page[domain.FoundUser]{}, false, nil
		}
		in, err := s.partitionQuery("", userExactPK(v), nil)
		if err != nil {
			return domain.Page[domain.FoundUser]{}, false, err
		}
		project(in, "userId")
		items, err := s.queryAll(ctx, in)
		if err != nil {
			return domain.Page[domain.FoundUser]{}, false, err
		}
		if ids, err = userIDsOf(items); err != nil {
			return domain.Page[domain.FoundUser]{}, false, err
		}
	case strings.Contains(q, ":"):
		var rec userSubRecord
		found, err := s.getItem(ctx, userSubKey(q), &rec)
		if err != nil || !found {
			return domain.Page[domain.FoundUser]{}, false, err
		}
		ids = []int64{rec.UserID}
	default:
		uid, err := strconv.ParseInt(q, 10, 64)
		if err != nil || uid <= 0 {
			return domain.Page[domain.FoundUser]{}, false, nil
		}
		ids = []int64{uid}
	}
	if len(ids) == 0 {
		return domain.Page[domain.FoundUser]{}, false, nil
	}
	users, err := s.usersOfOrganization(ctx, organizationGUID, ids)
	if err != nil || len(users) == 0 {
		return domain.Page[domain.FoundUser]{}, false, err
	}
	sortUsersByName(users, page.Descending)
	from := min(page.Offset(), len(users))
	to := min(from+page.Size, len(users))
	return domain.Page[domain.FoundUser]{Items: users[from:to], Total: int64(len(users))}, true, nil
}

// usersOfOrganization reads users by id in one BatchGetItem (per 50 ids)
// together with their items of the organization, keeping the users that
// have one; without an organization, every user found.
func (s *Store) usersOfOrganization(ctx context.Context, organizationGUID string, ids []int64) ([]domain.FoundUser, error) {
	keys := make([]itemKey, 0, 2*len(ids))
	for _, uid := range ids {
		keys = append(keys, userKey(uid))
		if organizationGUID != "" {
			keys = append(keys, userOrgKey(uid, organizationGUID))
		}
	}
	items, err := s.batchGet(ctx, keys)
	if err != nil {
		return nil, err
	}
	inOrg := map[int64]bool{}
	userItems := make([]item, 0, len(ids))
	for _, it := range items {
		if stringAttr(it, "entity") == entityUserOrganization {
			uid, err := strconv.ParseInt(numberAttr(it, "userId"), 10, 64)
			if err != nil {
				return nil, err
			}
			inOrg[uid] = true
			continue
		}
		userItems = append(userItems, it)
	}
	users, err := decodeFoundUsers(userItems)
	if err != nil {
		return nil, err
	}
	if organizationGUID == "" {
		return users, nil
	}
	kept := users[:0]
	for _, u := range users {
		if inOrg[u.User.ID] {
			kept = append(kept, u)
		}
	}
	return kept, nil
}
