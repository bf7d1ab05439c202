package dynamo

import (
	"cmp"
	"context"
	"slices"
	"strings"
	"unicode"

	"github.com/edu-invite/invite/shared/domain"
)

// maxKeyWords bounds the query words whose people a search reads to find
// the most selective one (one Query each); further words only filter.
const maxKeyWords = 4

// searchByWords answers a word query exactly or not at all. Each word of
// two or more letters (the longest maxKeyWords) names the people with a
// word starting with it; the search reads at most searchBound+1 of them
// per word, in keyWords' order, and answers from the first word whose
// people it read whole (a selective one), keeping those whose words start
// with every query word (the intersection), then, for an organization,
// those of the organization.
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

// mostSelectiveCandidates returns the people of a key word that names at
// most searchBound people, preferring the first in keyWords' order (the
// likeliest selective: a number, then the longest word) and else the one
// naming the fewest; complete is false when every key word names more.
// Any such word gives the exact answer, since its people are all read and
// filtered on every word (which leaves the intersection, the same from
// any of them).
//
// What a word names is learned cheaply before its people are read whole:
//
//   - one key word: its people are counted from their ids (one request,
//     the whole cost of a word too broad to answer), then read;
//   - several: the first is read (its read is its count: a selective first
//     word answers at once) while the people of the others are counted
//     from their ids, all together; when the first names more than the
//     bound, the counted word naming the fewest is read.
//
// So a query whose words are all too broad costs one request per key word
// (at most maxKeyWords), sent together rather than one after the other.
func (s *Store) mostSelectiveCandidates(ctx context.Context, words []string) ([]searchCandidate, bool, error) {
	keys := keyWords(words)
	if len(keys) == 0 {
		// One-letter words only: the people with a word starting with the
		// first, from its letter items (users_index_letters.go).
		keys = words[:1]
	}
	var first []searchCandidate
	people := make([]int, len(keys))
	complete := make([]bool, len(keys))
	err := allTogether(ctx, len(keys), func(ctx context.Context, i int) error {
		var err error
		if i == 0 && len(keys) > 1 {
			first, complete[0], err = s.wordPrefixCandidates(ctx, keys[0])
			people[0] = len(first)
		} else {
			people[i], complete[i], err = s.countWordPeople(ctx, keys[i])
		}
		return err
	})
	if err != nil {
		return nil, false, err
	}
	if first != nil && complete[0] {
		return first, true, nil
	}
	best := -1
	for i := range keys {
		if complete[i] && (best < 0 || people[i] < people[best]) {
			best = i
		}
	}
	if best < 0 {
		return nil, false, nil
	}
	// Counted a moment ago: a user written since may take the word past
	// the bound, and the search then says so rather than answer from part.
	return s.wordPrefixCandidates(ctx, keys[best])
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
