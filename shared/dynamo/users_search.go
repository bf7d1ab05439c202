package dynamo

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/edu-invite/invite/shared/domain"
)

// DefaultSearchBound is how many people one word of a user search may
// name (as a prefix, in the whole table) for the search to read all of
// them: a page then costs a few Queries of word items and a BatchGetItem,
// however many users the table holds.
const DefaultSearchBound = 1000

// SetSearchBound changes the bound of the user search (DefaultSearchBound);
// tests and benchmarks lower it to show at small scale what a national
// table does at the default. Call it before the store is shared.
func (s *Store) SetSearchBound(n int) {
	if n > 0 {
		s.searchBound = n
	}
}

// SearchUsers implements domain.UserSearchStore.
//
//   - Every user, no query: the gsi2 listing by name, walked to the page's
//     offset; the total is the COUNT#users item.
//   - Every user, a query: the word items of the query's longest word
//     (one partition, begins_with), then the users, keeping those whose
//     words start with every word of the query; sorted by name in memory.
//   - One organization: see searchOrganizationUsers (the organization
//     items of users_orgindex.go); as bounded as the search of all users.
func (s *Store) SearchUsers(ctx context.Context, q domain.UserSearch) (domain.Page[domain.User], error) {
	found, err := s.SearchUsersWithRoles(ctx, q)
	users := make([]domain.User, len(found.Items))
	for i, f := range found.Items {
		users[i] = f.User
	}
	return domain.Page[domain.User]{Items: users, Total: found.Total}, err
}

// SearchUsersWithRoles implements domain.UserSearchStore: SearchUsers at
// the same cost, with each user's role summary (users_rolesummary.go).
func (s *Store) SearchUsersWithRoles(ctx context.Context, q domain.UserSearch) (domain.Page[domain.FoundUser], error) {
	words := splitWords(q.Page.Query)
	if len(words) == 0 {
		if q.OrganizationGUID != "" {
			return s.listOrganizationUsersByName(ctx, q.OrganizationGUID, q.Page)
		}
		return s.listUsersByName(ctx, q.Page)
	}
	page, ok, err := s.searchByIdentifier(ctx, q.OrganizationGUID, q.Page.Query, q.Page)
	if err != nil || ok {
		return page, err
	}
	return s.searchByWords(ctx, q.OrganizationGUID, words, q.Page)
}

// searchCandidate is a user a search may show: its id, its listing sort
// key and its search words, as the index item it came from (a word item or
// an organization item) carries them.
type searchCandidate struct {
	ID        int64
	ListingSK string
	Words     []string
}

// candidateIDs are the ids of candidates.
func candidateIDs(candidates []searchCandidate) []int64 {
	ids := make([]int64, len(candidates))
	for i, c := range candidates {
		ids[i] = c.ID
	}
	return ids
}

// matchingUsersPage keeps the candidates whose words start with every
// query word, sorts them by name, cuts the page and reads its users (one
// BatchGetItem for a page of up to 100). The index items are trusted:
// items of an older version without sort key and words match nothing
// until the index repair rewrites them (RepairIndexes), no user is read to
// complete them.
func (s *Store) matchingUsersPage(ctx context.Context, candidates []searchCandidate, words []string, page domain.PageRequest) (domain.Page[domain.FoundUser], error) {
	matched := make([]searchCandidate, 0, len(candidates))
	for _, c := range candidates {
		if matchesAllWords(c.Words, words) {
			matched = append(matched, c)
		}
	}
	slices.SortFunc(matched, func(a, b searchCandidate) int {
		c := strings.Compare(a.ListingSK, b.ListingSK)
		if page.Descending {
			return -c
		}
		return c
	})
	from := min(page.Offset(), len(matched))
	to := min(from+page.Size, len(matched))
	window := matched[from:to]
	read := map[int64]domain.FoundUser{}
	if len(window) > 0 {
		users, err := s.getUsers(ctx, candidateIDs(window))
		if err != nil {
			return domain.Page[domain.FoundUser]{}, err
		}
		for _, u := range users {
			read[u.User.ID] = u
		}
	}
	items := make([]domain.FoundUser, 0, len(window))
	for _, c := range window {
		if u, ok := read[c.ID]; ok {
			items = append(items, u)
		}
	}
	return domain.Page[domain.FoundUser]{Items: items, Total: int64(len(matched))}, nil
}

// ListInstitutionAdmins implements domain.UserSearchStore.
func (s *Store) ListInstitutionAdmins(ctx context.Context, organizationGUID string) ([]domain.User, error) {
	if organizationGUID == "" {
		return nil, nil
	}
	in, err := s.partitionQuery(indexGSI3, adminPK(organizationGUID), nil)
	if err != nil {
		return nil, err
	}
	items, err := s.queryAll(ctx, in)
	if err != nil {
		return nil, err
	}
	return decodeUsers(items)
}

// listUsersByName reads one page of the listing by name.
func (s *Store) listUsersByName(ctx context.Context, page domain.PageRequest) (domain.Page[domain.FoundUser], error) {
	total, err := s.countUsers(ctx)
	if err != nil {
		return domain.Page[domain.FoundUser]{}, err
	}
	in, err := s.partitionQuery(indexGSI2, usersPK, nil)
	if err != nil {
		return domain.Page[domain.FoundUser]{}, err
	}
	in.ScanIndexForward = aws.Bool(!page.Descending)
	items, err := s.queryWindow(ctx, in, page.Offset(), page.Size)
	if err != nil {
		return domain.Page[domain.FoundUser]{}, err
	}
	users, err := decodeFoundUsers(items)
	if err != nil {
		return domain.Page[domain.FoundUser]{}, err
	}
	return domain.Page[domain.FoundUser]{Items: users, Total: total}, nil
}

// countUsers sums the shards of the user count.
func (s *Store) countUsers(ctx context.Context) (int64, error) {
	return s.sumCount(ctx, userCountKey, userCountShards)
}

// queryWindow skips offset items of a query and returns the next limit, in
// one Query of offset+limit items while they fit in DynamoDB's 1 MB page (a
// page of 10 at offset 90 is one request, not a keys-only skip and a read):
// DynamoDB charges a Query for the items it reads, not for the attributes
// it returns, so projecting the skipped items to their keys saved bytes
// only, at the price of a request.
func (s *Store) queryWindow(ctx context.Context, in *dynamodb.QueryInput, offset, limit int) ([]item, error) {
	in.TableName = aws.String(s.table)
	var items []item
	for len(items) < offset+limit {
		in.Limit = aws.Int32(int32(offset + limit - len(items)))
		out, err := s.db.Query(ctx, in)
		if err != nil {
			return nil, fmt.Errorf("query %s: %w", aws.ToString(in.IndexName), err)
		}
		items = append(items, out.Items...)
		if len(out.LastEvaluatedKey) == 0 {
			break
		}
		in.ExclusiveStartKey = out.LastEvaluatedKey
	}
	if len(items) <= offset {
		return nil, nil
	}
	return items[offset:], nil
}

// GetUsersWithRoles implements domain.UserSearchStore.
func (s *Store) GetUsersWithRoles(ctx context.Context, ids []int64) ([]domain.FoundUser, error) {
	return s.getUsers(ctx, ids)
}

// getUsers reads users by id (BatchGetItem); absent ones are left out.
func (s *Store) getUsers(ctx context.Context, ids []int64) ([]domain.FoundUser, error) {
	keys := make([]itemKey, len(ids))
	for i, uid := range ids {
		keys[i] = userKey(uid)
	}
	items, err := s.batchGet(ctx, keys)
	if err != nil {
		return nil, err
	}
	return decodeFoundUsers(items)
}

func decodeUsers(items []item) ([]domain.User, error) {
	return decodeAll(items, decodeWith[userRecord, domain.User])
}

// matchesAllWords: every query word is a prefix of some word of the user.
func matchesAllWords(userWords, query []string) bool {
	for _, q := range query {
		if !slices.ContainsFunc(userWords, func(w string) bool { return strings.HasPrefix(w, q) }) {
			return false
		}
	}
	return true
}

// sortUsersByName orders as the listing index does: by sort name, then id.
func sortUsersByName(users []domain.FoundUser, descending bool) {
	slices.SortFunc(users, func(a, b domain.FoundUser) int {
		c := strings.Compare(userListingSK(a.User), userListingSK(b.User))
		if descending {
			return -c
		}
		return c
	})
}

// project narrows a query to some attributes, through name placeholders
// (#p0, #p1, ...) so that reserved words cannot break it.
func project(in *dynamodb.QueryInput, attrs ...string) {
	names := make(map[string]string, len(in.ExpressionAttributeNames)+len(attrs))
	maps.Copy(names, in.ExpressionAttributeNames)
	placeholders := make([]string, len(attrs))
	for i, a := range attrs {
		placeholders[i] = fmt.Sprintf("#p%d", i)
		names[placeholders[i]] = a
	}
	in.ExpressionAttributeNames = names
	in.ProjectionExpression = aws.String(strings.Join(placeholders, ", "))
}
