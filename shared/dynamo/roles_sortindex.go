package dynamo

import (
	"fmt"
	"reflect"
	"slices"

	"github.com/edu-invite/invite/shared/domain"
)

// The role listing indexes (read by roles_listing_page.go): derived items
// that let a page of roles cost what one page costs, however many roles
// there are. roleListingItems builds them from a role; the projection step
// (roleListingWrites) derives their writes from a role's changes. Per role:
//
//   - one RoleListing item per scope it is listed in (every role: ALL; a
//     role of an organization: ORG#<guid> too), pk ROLE#<id>, sk
//     LIST#<scope>, in the four sorted partitions RLIST#<sort>#<scope>:
//     gsi1 by name, gsi2 by id, gsi3 by creation, gsi4 by description,
//     each sort key domain.RoleSortKey;
//   - one RoleWord item per search word (name first, then description,
//     distinct, at most maxRoleWords = 16), pk RWORD#<guid>#<first letter>, sk
//     <word>#<id>, and in gsi1 RWORD#<first letter> for the search over
//     every role. Word and listing items carry the role's words and sort
//     keys, so a search filters and orders its candidates from them alone;
//   - the count of roles of each scope (COUNT#roles#<scope>), ADDed when a
//     role enters or leaves a scope, the total of an unfiltered page.
//
// The item ROLELISTING/READY records that every role has its items
// (written by the index repair after its last role, and by the creation or
// seed of role 1, when no older role can lack them). No request reads it:
// listings trust the items, and roles of an older version are listed once
// the index repair has written theirs.

const (
	prefixRoleListing = "RLIST#"
	prefixRoleWord    = "RWORD#"
	skRoleListing     = "LIST#"
	roleScopeAll      = "ALL"

	entityRoleListing = "RoleListing"
	entityRoleWord    = "RoleWord"
	entityRoleCount   = "RoleCount"
	entityRoleReady   = "RoleListingReady"

	// maxRoleWords bounds the word items of one role, as for people (and
	// so the writes a role change adds to its transaction, which also
	// holds the role's application links and deliveries); later
	// description words are not searchable.
	maxRoleWords = 16
	// maxRoleWordLength cuts long words (partition and sort keys stay small).
	maxRoleWordLength = 64
)

// roleSortIndexes names the index holding each sorted listing.
var roleSortIndexes = map[string]string{
	"name": indexGSI1, "id": indexGSI2, "createdAt": indexGSI3, "description": indexGSI4,
}

// roleListingReadyKey is the item that says every role has its listing items.
var roleListingReadyKey = itemKey{PK: "ROLELISTING", SK: "READY"}

// roleScope is the scope partition of an organization ("" is every role).
func roleScope(organizationGUID string) string {
	if organizationGUID == "" {
		return roleScopeAll
	}
	return orgPK(organizationGUID)
}

// roleScopesOf are the scopes a role is listed in.
func roleScopesOf(r domain.Role) []string {
	if r.OrganizationGUID == "" {
		return []string{roleScopeAll}
	}
	return []string{roleScopeAll, roleScope(r.OrganizationGUID)}
}

func roleListingPK(sort, scope string) string { return prefixRoleListing + sort + "#" + scope }

func roleCountKey(scope string) itemKey { return itemKey{PK: "COUNT#roles#" + scope, SK: "COUNT"} }

// roleWordPartition is a word's partition within an organization; the
// search over every role uses gsi1 RWORD#<first letter>.
func roleWordPartition(organizationGUID, word string) string {
	return prefixRoleWord + organizationGUID + "#" + roleWordLetter(word)
}

func roleWordLetter(word string) string { return string([]rune(word)[:1]) }

// roleSortKeys are what a listing or search orders a role by.
type roleSortKeys struct {
	RoleID         int64    `dynamodbav:"roleId"`
	NameKey        string   `dynamodbav:"nameKey"`
	DescriptionKey string   `dynamodbav:"descriptionKey"`
	CreatedKey     string   `dynamodbav:"createdKey"`
	Words          []string `dynamodbav:"words,omitempty"`
}

// key is the sort key of the role under a sort (domain.RoleSortKey).
func (k roleSortKeys) key(sort string) string {
	switch sort {
	case "id":
		return fmt.Sprintf("%019d", k.RoleID)
	case "createdAt":
		return k.CreatedKey
	case "description":
		return k.DescriptionKey
	default:
		return k.NameKey
	}
}

type roleListingRecord struct {
	itemKey
	indexKeys
	Entity string `dynamodbav:"entity"`
	roleSortKeys
}

type roleWordRecord struct {
	itemKey
	indexKeys
	Entity string `dynamodbav:"entity"`
	roleSortKeys
}

type roleCountRecord struct {
	itemKey
	Entity string `dynamodbav:"entity"`
	Value  int64  `dynamodbav:"value"`
}

type roleReadyRecord struct {
	itemKey
	Entity string `dynamodbav:"entity"`
}

// roleWords are a role's search words: the words of its name, then of its
// description, lower case, distinct, at most maxRoleWords.
func roleWords(r domain.Role) []string {
	var words []string
	for _, w := range append(splitWords(r.Name), splitWords(r.Description)...) {
		if len(w) > maxRoleWordLength {
			w = string([]rune(w)[:maxRoleWordLength])
		}
		if !slices.Contains(words, w) && len(words) < maxRoleWords {
			words = append(words, w)
		}
	}
	return words
}

func sortKeysOf(r domain.Role) roleSortKeys {
	return roleSortKeys{RoleID: r.ID, NameKey: domain.RoleSortKey(r, "name"),
		DescriptionKey: domain.RoleSortKey(r, "description"), CreatedKey: domain.RoleSortKey(r, "createdAt"),
		Words: roleWords(r)}
}

// roleListingItems are the derived items a role is listed and found by,
// keyed by their table keys: the one place that says what they are.
func roleListingItems(r domain.Role) map[itemKey]any {
	keys := sortKeysOf(r)
	items := map[itemKey]any{}
	for _, scope := range roleScopesOf(r) {
		rec := roleListingRecord{itemKey: itemKey{PK: roleKey(r.ID).PK, SK: skRoleListing + scope},
			Entity: entityRoleListing, roleSortKeys: keys}
		rec.GSI1PK, rec.GSI1SK = roleListingPK("name", scope), keys.key("name")
		rec.GSI2PK, rec.GSI2SK = roleListingPK("id", scope), keys.key("id")
		rec.GSI3PK, rec.GSI3SK = roleListingPK("createdAt", scope), keys.key("createdAt")
		rec.GSI4PK, rec.GSI4SK = roleListingPK("description", scope), keys.key("description")
		items[rec.itemKey] = rec
	}
	for _, w := range keys.Words {
		sk := w + "#" + keys.key("id")
		rec := roleWordRecord{itemKey: itemKey{PK: roleWordPartition(r.OrganizationGUID, w), SK: sk},
			indexKeys: indexKeys{GSI1PK: prefixRoleWord + roleWordLetter(w), GSI1SK: sk},
			Entity:    entityRoleWord, roleSortKeys: keys}
		items[rec.itemKey] = rec
	}
	return items
}

// roleListingWrites are the projection's writes (projection.go) that take
// a role's listing items from before (nil: a new role) to after (nil: a
// deleted role): deletes of the items after no longer has, puts of the new
// or changed ones, and the scope counts of the scopes the role enters or
// leaves. The creation of role 1 also writes the ready item.
func roleListingWrites(before, after *domain.Role) ([]derivedWrite, []counterAdd) {
	old, now := map[itemKey]any{}, map[itemKey]any{}
	var scopesBefore, scopesAfter []string
	if before != nil {
		old, scopesBefore = roleListingItems(*before), roleScopesOf(*before)
	}
	if after != nil {
		now, scopesAfter = roleListingItems(*after), roleScopesOf(*after)
	}
	var writes []derivedWrite
	for _, key := range sortedKeys(old) {
		if _, kept := now[key]; !kept {
			key := key
			writes = append(writes, derivedWrite{copy: copyRoleListing, del: &key})
		}
	}
	for _, key := range sortedKeys(now) {
		if prev, ok := old[key]; !ok || !reflect.DeepEqual(prev, now[key]) {
			writes = append(writes, derivedWrite{copy: copyRoleListing, put: now[key]})
		}
	}
	var counts []counterAdd
	for _, scope := range scopesBefore {
		if !slices.Contains(scopesAfter, scope) {
			counts = append(counts, counterAdd{key: roleCountKey(scope), entity: entityRoleCount, n: -1})
		}
	}
	for _, scope := range scopesAfter {
		if !slices.Contains(scopesBefore, scope) {
			counts = append(counts, counterAdd{key: roleCountKey(scope), entity: entityRoleCount, n: 1})
		}
	}
	if before == nil && after != nil && after.ID == 1 {
		// The first role of a table: no role of an older version lacks its items.
		writes = append(writes, derivedWrite{copy: copyRoleListingReady,
			put: roleReadyRecord{itemKey: roleListingReadyKey, Entity: entityRoleReady}})
	}
	return writes, counts
}

func sortedKeys(m map[itemKey]any) []itemKey {
	keys := make([]itemKey, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b itemKey) int {
		if a.PK != b.PK {
			if a.PK < b.PK {
				return -1
			}
			return 1
		}
		if a.SK < b.SK {
			return -1
		}
		if a.SK > b.SK {
			return 1
		}
		return 0
	})
	return keys
}
