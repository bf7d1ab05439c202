package dynamo

import (
	"context"

	"github.com/edu-invite/invite/shared/domain"
)

// GetUsers implements domain.UserStore: one consistent BatchGetItem per
// 100 users.
func (s *Store) GetUsers(ctx context.Context, ids []int64) (map[int64]domain.User, error) {
	keys := make([]itemKey, 0, len(ids))
	seen := make(map[int64]bool, len(ids))
	for _, uid := range ids {
		if !seen[uid] {
			seen[uid] = true
			keys = append(keys, userKey(uid))
		}
	}
	records, err := batchGetRecords[userRecord](ctx, s, keys)
	if err != nil {
		return nil, err
	}
	out := make(map[int64]domain.User, len(records))
	for _, rec := range records {
		u, err := rec.domain()
		if err != nil {
			return nil, err
		}
		out[u.ID] = u
	}
	return out, nil
}
