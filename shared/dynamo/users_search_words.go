package dynamo

import (
	"cmp"
	"context"
	"slices"
	"strings"
	"sync"
	"unicode"

	"github.com/edu-invite/invite/shared/domain"
)

// maxKeyWords bounds the query words whose people a search reads, all at
// once, to find a selective one (one Query chain each); further words only
// filter.
const maxKeyWords = 4

// searchByWords answers a word query exactly or not at all. Each word of
// two or more letters (the key words, at most maxKeyWords) names the
// people with a word starting with it; the search answers from a key word
// whose people it read whole (at most searchBound: keyWordCandidates
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
	candidates, complete, err := s.keyWordCandidates(ctx, words)
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

// keyWords are the distinct query words of two or more letters that the
// search reads, at most maxKeyWords: words with a digit first (numbers in
// addresses and ids name few people, where a name or a domain names many),
// then the longest.
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

// keyWordCandidates returns the people of a key word naming at most
// searchBound people; complete is false when every key word names more.
// Any such word gives the exact answer, since its people are all read and
// filtered on every word (which leaves the intersection, the same from any
// of them).
//
// Every key word is read at once, each in a goroutine of its own with what
// filtering and sorting need (wordPrefixCandidates: one Query chain each,
// at most maxKeyWords), and the first read to complete within the bound
// answers: the others are cancelled then. A selective word (a number)
// reads few items and so completes first, without waiting for the broad
// ones; a query whose key words are all too broad costs one round of
// reads, not one after the other.
func (s *Store) keyWordCandidates(ctx context.Context, words []string) ([]searchCandidate, bool, error) {
	keys := keyWords(words)
	if len(keys) == 0 {
		// One-letter words only: the people with a word starting with the
		// first, from its letter items (users_index_letters.go).
		keys = words[:1]
	}
	type read struct {
		candidates []searchCandidate
		complete   bool
		err        error
	}
	// Deferred in this order, the reads still going are cancelled first,
	// then awaited: no read outlives the search.
	var wg sync.WaitGroup
	defer wg.Wait()
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	reads := make(chan read, len(keys))
	for _, key := range keys {
		wg.Go(func() {
			var r read
			r.candidates, r.complete, r.err = s.wordPrefixCandidates(ctx, key, needsWords(key, words))
			reads <- r
		})
	}
	for range keys {
		// Until this returns, only the caller's context cancels a read:
		// an error here is the search's own.
		if r := <-reads; r.err != nil || r.complete {
			return r.candidates, r.complete, r.err
		}
	}
	return nil, false, nil
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
