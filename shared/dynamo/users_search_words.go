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
	candidates, complete, err := s.mostSelectiveCandidates(ctx, organizationGUID, words)
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
// (longest first) that names at most searchBound people; complete is false
// when every word names more. Any such word gives the exact answer, since
// its people are all read and filtered on every word (which leaves the
// intersection, the same from any of them); reading a further word to find
// a smaller set would cost a request and change nothing else, so the
// search stops at the first.
func (s *Store) mostSelectiveCandidates(ctx context.Context, organizationGUID string, words []string) ([]searchCandidate, bool, error) {
	keys := keyWords(words)
	if len(keys) == 0 {
		// One-letter words only: the people with a word starting with the
		// first, from its letter items (users_index_letters.go).
		keys = words[:1]
	}
	for _, k := range keys {
		c, complete, err := s.wordPrefixCandidates(ctx, k)
		if err != nil || complete {
			return c, complete, err
		}
	}
	return nil, false, nil
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
