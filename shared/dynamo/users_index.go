package dynamo

import (
	"context"
	"slices"
	"strings"
	"unicode"

	"github.com/edu-invite/invite/shared/domain"
)

// The user search index. Every user write of the store (SaveAcceptance,
// UpdateUser, ApplyRemoval, Seed) gets its items from the projection step
// (projection.go), which uses the helpers here, so the index never lags
// behind the users:
//
//   - the user item itself carries gsi2 USERS / <lower name>#<id> (the
//     listing by name) and, for institution admins, gsi3
//     ADMIN#<organizationGUID> / <lower name>#<id>;
//   - one word item per distinct word of the names and e-mail,
//     UWORD#<first two letters> / <word>#<userId>, so a word prefix is one
//     Query of one partition; each carries the user's listing sort key and
//     all its words, so a search page needs no read of non-matching users;
//   - COUNT#users#<userId mod 16> count the users for the listing's total.

const (
	entityUserWord  = "UserWord"
	entityUserExact = "UserExact"
	entityUserCount = "UserCount"
	// maxUserWords bounds the word items of one user, so that a user
	// change stays well inside a transaction (at most 2 × 16 word writes
	// and 2 × 16 letter writes).
	maxUserWords = 16
	// maxWordLength keeps sort keys short; longer words are cut.
	maxWordLength = 64
)

// userIndexKeys are the index keys of a user item.
func userIndexKeys(u domain.User) indexKeys {
	k := indexKeys{GSI2PK: usersPK, GSI2SK: userListingSK(u)}
	if u.InstitutionAdmin && u.OrganizationGUID != "" {
		k.GSI3PK, k.GSI3SK = adminPK(u.OrganizationGUID), userListingSK(u)
	}
	return k
}

// splitWords splits text into lower-case words of letters and digits.
func splitWords(s string) []string {
	return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
}

// userWords are the searchable words of a user: the words of the given,
// middle, family and full name, the e-mail's local part whole and the words
// of the e-mail address; distinct, sorted, at most maxUserWords.
func userWords(u domain.User) []string {
	var words []string
	for _, s := range []string{u.GivenName, u.MiddleName, u.FamilyName, u.Name} {
		words = append(words, splitWords(s)...)
	}
	email := strings.ToLower(strings.TrimSpace(u.Email))
	if local, _, ok := strings.Cut(email, "@"); ok && local != "" && !strings.Contains(local, "#") {
		words = append(words, local)
	}
	words = append(words, splitWords(email)...)
	for i, w := range words {
		if r := []rune(w); len(r) > maxWordLength {
			words[i] = string(r[:maxWordLength])
		}
	}
	slices.Sort(words)
	words = slices.Compact(words)
	return words[:min(len(words), maxUserWords)]
}

func sameSearchItem(a, b userWordRecord) bool {
	return a.itemKey == b.itemKey && a.Entity == b.Entity && a.ListingSK == b.ListingSK && slices.Equal(a.Words, b.Words)
}

// storedUserForIndex reads the stored user before an update so that its old
// words can be removed. The update itself is version-checked: if the user
// changed after this read, the transaction fails and nothing is written.
func (s *Store) storedUserForIndex(ctx context.Context, u domain.User) (domain.User, error) {
	stored, err := s.GetUser(ctx, u.ID)
	if err != nil {
		return domain.User{}, err
	}
	return stored, nil
}
