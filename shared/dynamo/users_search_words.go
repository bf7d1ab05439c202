package dynamo

import (
	"cmp"
	"context"
	"slices"
	"strings"
	"unicode"

	"github.com/edu-invite/invite/shared/domain"
)

// maxKeyWords bounds the query words whose people a search reads or counts
// to find a selective one (one Query each); further words only filter.
const maxKeyWords = 4

// searchByWords answers a word query exactly or not at all. Each word of
// two or more letters (the key words, at most maxKeyWords) names the
// people with a word starting with it; the search answers from a key word
// whose people it read whole (at most searchBound: mostSelectiveCandidates
// says which), keeping those whose words start with every query word (the
// intersection), then, for an organization, those of the organization.
// The total is exact and the page is the true page by name, because every
// match is among the people read. When every word names more than
// searchBound people, an organization with at most searchBound people is
// read whole instead; otherwise the search answers that the query must be
// narrowed (KindInvalid), rather than a total and a page that are not
// true. A query of one-letter words only is answered from the first
// letter's items, as a word's prefix is.
func (s *Store) searchByWords(ctx context.Context, organizationGUID string, words []string, page domain.PageRequest) (domain.Page[domain.FoundUser], error) {
	candidates, complete, err := s.mostSelectiveCandidates(ctx, words)
	if err != nil {
		return domain.Page[domain.FoundUser]{}, err
	}
	if !complete && organizationGUID != "" {
		candidates, complete, err = s.smallOrganizationCandidates(ctx, organizationGUID)
		if err != nil {
			return domain.Page[domain.FoundUser]{}, err
		}
		if complete {
			return s.matchingUsersPage(ctx, candidates, words, page)
		}
	}
	if !complete {
		return domain.Page[domain.FoundUser]{}, domain.SearchTooBroad(s.searchBound)
	}
	// Drop the candidates whose words are known not to match before asking
	// which belong to the organization: fewer keys to read.
	candidates = slices.DeleteFunc(candidates, func(c searchCandidate) bool {
		return !matchesAllWords(c.Words, words)
	})
	if organizationGUID != "" && len(candidates) > 0 {
		members, err := s.organizationMembersAmong(ctx, organizationGUID, candidateIDs(candidates))
		if err != nil {
			return domain.Page[domain.FoundUser]{}, err
		}
		inOrg := make(map[int64]bool, len(members))
		for _, uid := range members {
			inOrg[uid] = true
		}
		candidates = slices.DeleteFunc(candidates, func(c searchCandidate) bool { return !inOrg[c.ID] })
	}
	return s.matchingUsersPage(ctx, candidates, words, page)
}

// keyWords are the distinct query words of two or more letters, in the
// order the search tries them: words with a digit first (numbers in
// addresses and ids name few people, where a name or a domain names many),
// then the longest; at most maxKeyWords.
func keyWords(words []string) []string {
	var keys []string
	for _, w := range words {
		if len([]rune(w)) >= 2 && !slices.Contains(keys, w) {
			keys = append(keys, w)
		}
	}
	hasDigit := func(w string) bool { return strings.ContainsFunc(w, unicode.IsDigit) }
	slices.SortStableFunc(keys, func(a, b string) int {
		if da, db := hasDigit(a), hasDigit(b); da != db {
			if da {
				return -1
			}
			return 1
		}
		return cmp.Compare(len([]rune(b)), len([]rune(a)))
	})
	return keys[:min(len(keys), maxKeyWords)]
}

// mostSelectiveCandidates returns the people of the first key word
// (keyWords' order: a number, then the longest word, the likeliest
// selective) when it names at most searchBound people, else of the other
// key word naming the fewest; complete is false when every key word names
// more. Any such word gives the exact answer, since its people are all
// read and filtered on every word (which leaves the intersection, the same
// from any of them).
//
// The first key word is read alone, with what filtering and sorting need,
// so that a selective first word answers in that one Query. When it names
// more than the bound, the people of the other key words are counted from
// their ids only, all together (countWordPeople: one Query each, at most
// maxKeyWords−1), and only the one naming the fewest is read again with
// its sort keys and words. A query whose words are all too broad costs
// one read of its first word and one round of counts, rather than a read
// of every word one after the other.
func (s *Store) mostSelectiveCandidates(ctx context.Context, words []string) ([]searchCandidate, bool, error) {
	keys := keyWords(words)
	if len(keys) == 0 {
		// One-letter words only: the people with a word starting with the
		// first, from its letter items (users_index_letters.go).
		keys = words[:1]
	}
	first, complete, err := s.wordPrefixCandidates(ctx, keys[0], needsWords(keys[0], words))
	if err != nil || complete || len(keys) == 1 {
		return first, complete, err
	}
	others := keys[1:]
	people := make([]int, len(others))
	counted := make([]bool, len(others))
	err = allTogether(ctx, len(others), func(ctx context.Context, i int) error {
		var err error
		people[i], counted[i], err = s.countWordPeople(ctx, others[i])
		return err
	})
	if err != nil {
		return nil, false, err
	}
	best := -1
	for i := range others {
		if counted[i] && (best < 0 || people[i] < people[best]) {
			best = i
		}
	}
	if best < 0 {
		return nil, false, nil
	}
	// Counted a moment ago: a user written since may take the word past
	// the bound, and the search then says so rather than answer from part.
	return s.wordPrefixCandidates(ctx, others[best], needsWords(others[best], words))
}

// needsWords tells whether the people read from key's items must carry
// their words: when some query word is not a prefix of key (whoever has a
// word starting with key has one starting with each of its prefixes).
// A query of one word reads its people's ids and sort keys only.
func needsWords(key string, words []string) bool {
	return slices.ContainsFunc(words, func(w string) bool { return !strings.HasPrefix(key, w) })
}

// smallOrganizationCandidates are all the people of an organization when
// it has at most searchBound (its count's 16 shards, then its listing,
// whose items carry each user's sort key and words); complete is false for
// a larger one.
func (s *Store) smallOrganizationCandidates(ctx context.Context, organizationGUID string) ([]searchCandidate, bool, error) {
	n, err := s.sumCount(ctx, func(shard int64) itemKey { return orgUserCountKey(organizationGUID, shard) }, orgUserCountShards)
	if err != nil || n > int64(s.searchBound) {
		return nil, false, err
	}
	in, err := s.partitionQuery(indexGSI1, orgUsersPK(organizationGUID), nil)
	if err != nil {
		return nil, false, err
	}
	candidates, err := s.organizationCandidates(ctx, in, s.searchBound+1)
	if err != nil {
		return nil, false, err
	}
	return candidates, len(candidates) <= s.searchBound, nil
}
