package dynamo

import (
	"context"
	"fmt"

	"github.com/edu-invite/invite/shared/domain"
)

// GetLinksOf reads the links of many users or groups to the given SPs in
// one BatchGetItem per 100 keys (the console's member list: a page of
// members at a role's few SPs is one request). Links that do not exist are
// left out.
func (s *Store) GetLinksOf(ctx context.Context, kind domain.ResourceKind, localIDs []int64, spIDs []string) ([]domain.SPLink, error) {
	keys := make([]itemKey, 0, len(localIDs)*len(spIDs))
	for _, id := range localIDs {
		for _, sp := range spIDs {
			keys = append(keys, spLinkKey(kind, id, sp))
		}
	}
	items, err := s.batchGet(ctx, keys)
	if err != nil {
		return nil, fmt.Errorf("get links: %w", err)
	}
	return decodeAll(items, decodeWith[spLinkRecord, domain.SPLink])
}
