package dynamo

import (
	"context"

	"github.com/edu-invite/invite/shared/domain"
)

// membersPage is how many memberships one Query of ListMembersOfRole asks for.
const membersPage = maxPageSize

// ListMembersOfRole implements domain.MemberStore: the role's memberships
// through ListUserRolesOfRole (gsi1, pages of up to 1000), then their users
// by BatchGetItem (100 keys a request). A list of limit members costs
// limit/1000 + 1 Queries and limit/100 + 1 BatchGetItems.
func (s *Store) ListMembersOfRole(ctx context.Context, roleID int64, limit int) ([]domain.Member, bool, error) {
	if limit <= 0 {
		limit = defaultPageSize
	}
	var urs []domain.UserRole
	token := ""
	more := false
	for {
		page, next, err := s.ListUserRolesOfRole(ctx, roleID, token, min(membersPage, limit+1-len(urs)))
		if err != nil {
			return nil, false, err
		}
		urs = append(urs, page...)
		if len(urs) > limit {
			urs, more = urs[:limit], true
			break
		}
		if next == "" {
			break
		}
		token = next
	}
	keys := make([]itemKey, 0, len(urs))
	for _, ur := range urs {
		keys = append(keys, userKey(ur.UserID))
	}
	items, err := s.batchGet(ctx, keys)
	if err != nil {
		return nil, false, err
	}
	users := make(map[int64]domain.User, len(items))
	for _, it := range items {
		var rec userRecord
		if err := unmarshal(it, &rec); err != nil {
			return nil, false, err
		}
		u, err := rec.domain()
		if err != nil {
			return nil, false, err
		}
		users[u.ID] = u
	}
	members := make([]domain.Member, 0, len(urs))
	for _, ur := range urs {
		if u, ok := users[ur.UserID]; ok {
			members = append(members, domain.Member{UserRole: ur, User: u})
		}
	}
	return members, more, nil
}
