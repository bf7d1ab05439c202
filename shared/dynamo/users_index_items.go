package dynamo

import (
	"slices"
	"strings"

	"github.com/edu-invite/invite/shared/domain"
)

// Keys of the user search index (see users_index.go and DATAMODEL.md).
const (
	// usersPK is the gsi2 partition listing every user by name.
	usersPK = "USERS"
	// prefixUserWord starts the partitions of the word items.
	prefixUserWord = "UWORD#"
	// prefixAdmin starts the gsi3 partition of an organization's institution admins.
	prefixAdmin = "ADMIN#"
	// prefixUserExact starts the partition of one whole identifier (an
	// e-mail address or eppn, lower case): UEXACT#<value> / <userId>.
	prefixUserExact = "UEXACT#"
)

// userCountShards spreads the user count over items, so that concurrent
// transactions creating or deleting users seldom touch the same item (a
// transaction conflict would fail one of them).
const userCountShards = 16

// userCountKey is the shard of the user count that counts the user, so
// that a page of the unfiltered listing knows its total without counting
// the index: the total is the sum of the shards (one BatchGetItem).
func userCountKey(userID int64) itemKey {
	return itemKey{PK: "COUNT#users#" + id(userID%userCountShards), SK: "COUNT"}
}

// userWordPK is the partition of a word: its first two characters, so that
// a prefix query reads one partition and partitions stay small.
func userWordPK(word string) string {
	r := []rune(word)
	return prefixUserWord + string(r[:min(2, len(r))])
}

func userWordKey(word string, userID int64) itemKey {
	return itemKey{PK: userWordPK(word), SK: word + "#" + id(userID)}
}

// userSortName is the name a user is sorted by: the display name, else the
// e-mail, lower case.
func userSortName(u domain.User) string {
	n := u.DisplayName()
	if n == "" {
		n = u.Email
	}
	return strings.ToLower(n)
}

// userListingSK orders the listing by name, the id breaking ties.
func userListingSK(u domain.User) string { return userSortName(u) + "#" + id(u.ID) }

func adminPK(organizationGUID string) string { return prefixAdmin + organizationGUID }

// userWordRecord is one word of one user. It carries the user's place in
// the listing by name (its gsi2 sort key) and all the user's search words,
// so that a search filters and orders its candidates from the word items
// alone and reads only the users of the page. Word items written before
// these attributes existed have neither and match nothing until the index
// repair rewrites them (see matchingUsersPage).
type userWordRecord struct {
	itemKey
	Entity    string   `dynamodbav:"entity"`
	UserID    int64    `dynamodbav:"userId"`
	ListingSK string   `dynamodbav:"listingSk,omitempty"`
	Words     []string `dynamodbav:"words,omitempty"`
}

// newUserWordRecords are the search items of a user: one per word, one per
// first letter of its words (users_index_letters.go) and one per whole
// identifier (userIdentifiers), each with the user's sort key and words.
func newUserWordRecords(u domain.User) []userWordRecord {
	all := userWords(u)
	idents := userIdentifiers(u)
	records := make([]userWordRecord, 0, len(all)+len(idents))
	for _, w := range all {
		records = append(records, userWordRecord{itemKey: userWordKey(w, u.ID), Entity: entityUserWord, UserID: u.ID,
			ListingSK: userListingSK(u), Words: all})
	}
	for _, letter := range userLetters(all) {
		records = append(records, userWordRecord{itemKey: userWordKey(letter, u.ID), Entity: entityUserWord, UserID: u.ID,
			ListingSK: userListingSK(u), Words: all})
	}
	for _, v := range idents {
		records = append(records, userWordRecord{itemKey: userExactKey(v, u.ID), Entity: entityUserExact, UserID: u.ID,
			ListingSK: userListingSK(u), Words: all})
	}
	return records
}

// maxIdentifierLength keeps an identifier's partition key well inside
// DynamoDB's 2,048 bytes; longer values are not addresses.
const maxIdentifierLength = 512

// userIdentifiers are the whole values a search finds a user by besides
// the id and sub (which have their own keys): the e-mail address and the
// eppn, trimmed and lower case, distinct.
func userIdentifiers(u domain.User) []string {
	var out []string
	for _, v := range []string{u.Email, u.EduPersonPrincipalName} {
		v = identifierOf(v)
		if v != "" && len(v) <= maxIdentifierLength && !slices.Contains(out, v) {
			out = append(out, v)
		}
	}
	return out
}

// identifierOf is the form an identifier is stored and looked up in.
func identifierOf(s string) string { return strings.ToLower(strings.TrimSpace(s)) }

func userExactPK(value string) string { return prefixUserExact + value }

func userExactKey(value string, userID int64) itemKey {
	return itemKey{PK: userExactPK(value), SK: id(userID)}
}
