package dynamo

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"
	"unicode"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/edu-invite/invite/shared/domain"
)

// DefaultRoleListingBound is how many roles a role search reads at most
// for one page: the roles one query word names (as a prefix, in the scope),
// or a whole scope that small. Past it the search asks to be narrowed.
const DefaultRoleListingBound = 1000

// SetRoleListingBound changes DefaultRoleListingBound; tests lower it to
// show at small scale what a national table does. Call it before the store
// is shared.
func (s *Store) SetRoleListingBound(n int) {
	if n > 0 {
		s.roleListingBound = n
	}
}

// ListRolesPage implements domain.RoleListingStore from the listing items
// of roles_sortindex.go, at a cost that does not grow with the roles:
//
//   - no query, a sort of name, id, description or createdAt: the sorted
//     partition RLIST#<sort>#<scope> walked to the page (offset + size
//     small items), then one BatchGetItem of the scope's count, the
//     page's roles and their member counters: two requests;
//   - a query: the word items of its most selective word (at most
//     roleListingBound roles; else the whole scope when it is that small;
//     else RoleSearchTooBroad), filtered on every word and sorted in
//     memory, so the total and the page are exact; then the page's roles
//     and counters (state first: three requests or more per query word);
//   - sort userRoleCount (not indexed: every membership changes it): the
//     candidates as for a query (without one, the whole scope up to the
//     bound) and their member counters.
//
// The listing items are trusted: roles of an older version are listed
// once the index repair has written their items (repairRoleListings),
// there is no read of the scope whole.
func (s *Store) ListRolesPage(ctx context.Context, q domain.RoleListQuery) (page domain.Page[domain.Role], err error) {
	scope := roleScope(q.OrganizationGUID)
	sort := q.Page.Sort
	if _, ok := roleSortIndexes[sort]; !ok && sort != domain.RoleSortUserRoleCount {
		sort = "name"
	}
	words := splitWords(q.Page.Query)
	if len(words) == 0 && sort != domain.RoleSortUserRoleCount {
		// The window first, then one BatchGetItem of the scope's count,
		// the roles and their counters: two requests.
		ids, err := s.roleIDsWindow(ctx, sort, scope, q.Page)
		if err != nil {
			return page, err
		}
		got, err := s.rolesOfPage(ctx, scope, ids, true, !q.NoMemberCounts)
		if err != nil {
			return page, err
		}
		return domain.Page[domain.Role]{Items: got.roles, Total: got.total}, nil
	}
	state, err := s.rolesOfPage(ctx, scope, nil, true, false)
	if err != nil {
		return page, err
	}
	candidates, complete, err := s.roleCandidates(ctx, q.OrganizationGUID, words, state.total)
	if err != nil {
		return page, err
	}
	if !complete {
		return page, domain.RoleSearchTooBroad(s.roleListingBound)
	}
	candidates = slices.DeleteFunc(candidates, func(c roleSortKeys) bool { return !matchesAllWords(c.Words, words) })
	var counts map[int64]int64
	if sort == domain.RoleSortUserRoleCount {
		if counts, err = s.CountMembersOfRoles(ctx, roleIDsOf(candidates)); err != nil {
			return page, err
		}
	}
	slices.SortFunc(candidates, func(a, b roleSortKeys) int {
		var c int
		if counts != nil {
			c = cmp.Or(cmp.Compare(counts[a.RoleID], counts[b.RoleID]), cmp.Compare(a.RoleID, b.RoleID))
		} else {
			c = strings.Compare(a.key(sort), b.key(sort))
		}
		if q.Page.Descending {
			return -c
		}
		return c
	})
	from := min(q.Page.Offset(), len(candidates))
	withCounts := !q.NoMemberCounts || sort == domain.RoleSortUserRoleCount
	got, err := s.rolesOfPage(ctx, scope, roleIDsOf(candidates[from:min(from+q.Page.Size, len(candidates))]), false, withCounts)
	return domain.Page[domain.Role]{Items: got.roles, Total: int64(len(candidates))}, err
}

// pageRoles is what rolesOfPage read.
type pageRoles struct {
	roles []domain.Role
	total int64
}

// rolesOfPage reads in one BatchGetItem (more past 100 keys) the roles of
// a page, in the order of ids, with counts their member counters
// (UserRoleCount; 4 keys a role, so a page of 25 with them takes two
// requests), and with state the scope's count.
func (s *Store) rolesOfPage(ctx context.Context, scope string, ids []int64, state, counts bool) (pageRoles, error) {
	var keys []itemKey
	if state {
		keys = append(keys, roleCountKey(scope))
	}
	for _, roleID := range ids {
		keys = append(keys, roleKey(roleID))
	}
	if counts {
		keys = append(keys, memberCountKeys(ids)...)
	}
	var got pageRoles
	if len(keys) == 0 {
		return got, nil
	}
	items, err := s.batchGet(ctx, keys)
	if err != nil {
		return pageRoles{}, err
	}
	byID := map[int64]domain.Role{}
	shards := map[itemKey]roleMemberCountRecord{}
	for _, it := range items {
		var rec roleMemberCountRecord // key, entity and value: enough to tell them apart
		if err := unmarshal(it, &rec); err != nil {
			return pageRoles{}, err
		}
		switch {
		case rec.itemKey == roleCountKey(scope):
			got.total = rec.Value
		case rec.Entity == entityRole:
			r, err := decodeRole(it)
			if err != nil {
				return pageRoles{}, err
			}
			byID[r.ID] = r
		default:
			shards[rec.itemKey] = rec
		}
	}
	memberCounts, err := s.memberCountsFrom(ctx, ids, shards)
	if err != nil {
		return pageRoles{}, err
	}
	for _, roleID := range ids {
		if r, ok := byID[roleID]; ok {
			r.UserRoleCount = memberCounts[roleID]
			got.roles = append(got.roles, r)
		}
	}
	return got, nil
}

// roleIDsWindow reads the ids of one page of a sorted listing: offset +
// size small items (DynamoDB has no offset; the items before the page are
// read and dropped, as in the user listing).
func (s *Store) roleIDsWindow(ctx context.Context, sort, scope string, page domain.PageRequest) ([]int64, error) {
	if page.Size <= 0 {
		return nil, nil
	}
	in, err := s.partitionQuery(roleSortIndexes[sort], roleListingPK(sort, scope), nil)
	if err != nil {
		return nil, err
	}
	in.ScanIndexForward = aws.Bool(!page.Descending)
	project(in, "roleId")
	items, err := s.queryWindow(ctx, in, page.Offset(), page.Size)
	if err != nil {
		return nil, err
	}
	ids := make([]int64, len(items))
	for i, it := range items {
		var k roleSortKeys
		if err := unmarshal(it, &k); err != nil {
			return nil, err
		}
		ids[i] = k.RoleID
	}
	return ids, nil
}

// roleCandidates are the roles the page is chosen from, with their words
// and sort keys: those with a word starting with the most selective query
// word (tried numbers first, then longest, at most maxKeyWords, each read up to the
// bound), else every role of the scope when it has at most bound. complete
// is false when neither fits the bound.
func (s *Store) roleCandidates(ctx context.Context, organizationGUID string, words []string, total int64) ([]roleSortKeys, bool, error) {
	// Words with a digit first (a number names few roles), then the longest.
	keys := slices.Clone(words)
	hasDigit := func(w string) bool { return strings.ContainsFunc(w, unicode.IsDigit) }
	slices.SortStableFunc(keys, func(a, b string) int {
		if da, db := hasDigit(a), hasDigit(b); da != db {
			if da {
				return -1
			}
			return 1
		}
		return cmp.Compare(len(b), len(a))
	})
	keys = slices.Compact(keys)
	for _, w := range keys[:min(len(keys), maxKeyWords)] {
		var in *dynamodb.QueryInput
		var err error
		if organizationGUID == "" {
			in, err = s.partitionQuery(indexGSI1, prefixRoleWord+roleWordLetter(w), sortKeyPrefix(w))
		} else {
			in, err = s.partitionQuery("", roleWordPartition(organizationGUID, w), sortKeyPrefix(w))
		}
		if err != nil {
			return nil, false, err
		}
		found, complete, err := s.distinctRoleKeys(ctx, in)
		if err != nil || complete {
			return found, complete, err
		}
	}
	if total > int64(s.roleListingBound) {
		return nil, false, nil
	}
	in, err := s.partitionQuery(indexGSI2, roleListingPK("id", roleScope(organizationGUID)), nil)
	if err != nil {
		return nil, false, err
	}
	return s.distinctRoleKeys(ctx, in)
}

// distinctRoleKeys reads the roles of a query of listing or word items, at
// most roleListingBound+1 of them; complete is false when there are more.
func (s *Store) distinctRoleKeys(ctx context.Context, in *dynamodb.QueryInput) ([]roleSortKeys, bool, error) {
	project(in, "roleId", "nameKey", "descriptionKey", "createdKey", "words")
	in.TableName = aws.String(s.table)
	var found []roleSortKeys
	seen := map[int64]bool{}
	for len(found) <= s.roleListingBound {
		in.Limit = aws.Int32(int32(s.roleListingBound + 1 - len(found)))
		out, err := s.db.Query(ctx, in)
		if err != nil {
			return nil, false, fmt.Errorf("query role listing: %w", err)
		}
		for _, it := range out.Items {
			var k roleSortKeys
			if err := unmarshal(it, &k); err != nil {
				return nil, false, err
			}
			if !seen[k.RoleID] {
				seen[k.RoleID] = true
				found = append(found, k)
			}
		}
		if len(out.LastEvaluatedKey) == 0 {
			return found, len(found) <= s.roleListingBound, nil
		}
		in.ExclusiveStartKey = out.LastEvaluatedKey
	}
	return found, false, nil
}

func roleIDsOf(keys []roleSortKeys) []int64 {
	ids := make([]int64, len(keys))
	for i, k := range keys {
		ids[i] = k.RoleID
	}
	return ids
}
