package dynamo

import (
	"context"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/edu-invite/invite/shared/domain"
)

// listOrganizationUsersByName reads one page of an organization's listing:
// the listing's Query, then one BatchGetItem of the page's users together
// with the count's shards (a second one past 84 users).
func (s *Store) listOrganizationUsersByName(ctx context.Context, organizationGUID string, page domain.PageRequest) (domain.Page[domain.FoundUser], error) {
	in, err := s.partitionQuery(indexGSI1, orgUsersPK(organizationGUID), nil)
	if err != nil {
		return domain.Page[domain.FoundUser]{}, err
	}
	in.ScanIndexForward = aws.Bool(!page.Descending)
	items, err := s.queryWindow(ctx, in, page.Offset(), page.Size)
	if err != nil {
		return domain.Page[domain.FoundUser]{}, err
	}
	ids, err := userIDsOf(items)
	if err != nil {
		return domain.Page[domain.FoundUser]{}, err
	}
	keys := make([]itemKey, 0, len(ids)+orgUserCountShards)
	for shard := range int64(orgUserCountShards) {
		keys = append(keys, orgUserCountKey(organizationGUID, shard))
	}
	for _, uid := range ids {
		keys = append(keys, userKey(uid))
	}
	read, err := s.batchGet(ctx, keys)
	if err != nil {
		return domain.Page[domain.FoundUser]{}, err
	}
	var total int64
	userItems := make([]item, 0, len(ids))
	for _, it := range read {
		if stringAttr(it, "entity") != entityOrgUserCount {
			userItems = append(userItems, it)
			continue
		}
		var shard struct {
			Value int64 `dynamodbav:"value"`
		}
		if err := unmarshal(it, &shard); err != nil {
			return domain.Page[domain.FoundUser]{}, err
		}
		total += shard.Value
	}
	users, err := decodeFoundUsers(userItems)
	if err != nil {
		return domain.Page[domain.FoundUser]{}, err
	}
	// BatchGetItem answers in any order; the listing's order is the name's.
	sortUsersByName(users, page.Descending)
	return domain.Page[domain.FoundUser]{Items: users, Total: total}, nil
}

// organizationMembersAmong keeps the users that have an item of the
// organization (one BatchGetItem per 100 users).
func (s *Store) organizationMembersAmong(ctx context.Context, organizationGUID string, userIDs []int64) ([]int64, error) {
	keys := make([]itemKey, len(userIDs))
	for i, uid := range userIDs {
		keys[i] = userOrgKey(uid, organizationGUID)
	}
	items, err := s.batchGet(ctx, keys)
	if err != nil {
		return nil, err
	}
	return userIDsOf(items)
}

// organizationCandidates reads the organization listing's items, at most
// limit, as search candidates: each carries its user's sort key (gsi1sk)
// and search words.
func (s *Store) organizationCandidates(ctx context.Context, in *dynamodb.QueryInput, limit int) ([]searchCandidate, error) {
	project(in, "userId", attrGSI1SK, "words")
	in.TableName = aws.String(s.table)
	var candidates []searchCandidate
	for len(candidates) < limit {
		in.Limit = aws.Int32(int32(limit - len(candidates)))
		out, err := s.db.Query(ctx, in)
		if err != nil {
			return nil, fmt.Errorf("query organization users: %w", err)
		}
		for _, it := range out.Items {
			var rec userOrgRecord
			if err := unmarshal(it, &rec); err != nil {
				return nil, err
			}
			candidates = append(candidates, searchCandidate{ID: rec.UserID, ListingSK: rec.GSI1SK, Words: rec.Words})
		}
		if len(out.LastEvaluatedKey) == 0 {
			break
		}
		in.ExclusiveStartKey = out.LastEvaluatedKey
	}
	return candidates, nil
}

// userIDsOf reads the userId attribute of organization items.
func userIDsOf(items []item) ([]int64, error) {
	ids := make([]int64, 0, len(items))
	for _, it := range items {
		var rec struct {
			UserID int64 `dynamodbav:"userId"`
		}
		if err := unmarshal(it, &rec); err != nil {
			return nil, err
		}
		ids = append(ids, rec.UserID)
	}
	return ids, nil
}

// sumCount sums the shards of a sharded count (one BatchGetItem).
func (s *Store) sumCount(ctx context.Context, shardKey func(shard int64) itemKey, shards int) (int64, error) {
	keys := make([]itemKey, shards)
	for i := range keys {
		keys[i] = shardKey(int64(i))
	}
	items, err := s.batchGet(ctx, keys)
	if err != nil {
		return 0, err
	}
	var total int64
	for _, it := range items {
		var shard struct {
			Value int64 `dynamodbav:"value"`
		}
		if err := unmarshal(it, &shard); err != nil {
			return 0, err
		}
		total += shard.Value
	}
	return total, nil
}
