package dynamo

import (
	"context"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
)

// The reads of a word's items (UWORD#<two letters>, begins_with <word>):
// wordPrefixCandidates reads each user's id and sort key, and its words
// when the query has words the read word does not imply (a few hundred
// bytes an item with them, some tens without). Every read costs DynamoDB
// the same read units per item, whatever it returns; what crosses the wire
// and is decoded is most of a read's time on DynamoDB Local. It counts
// people, not items: a person with two words starting with the prefix
// ("anna" and "anna.jansen") has two items, so a COUNT of items (Select
// COUNT) would overstate the people a prefix names and call a word too
// broad that is not.

// queryWordItems is one Query of the items of the words starting with
// prefix, from start (nil: the first), at most limit items, projected to
// attrs. next is where the read stopped, nil when it reached the end.
func (s *Store) queryWordItems(ctx context.Context, prefix string, start item, limit int, attrs ...string) (recs []userWordRecord, next item, err error) {
	in, err := s.partitionQuery("", userWordPK(prefix), sortKeyPrefix(prefix))
	if err != nil {
		return nil, nil, err
	}
	project(in, attrs...)
	in.ExclusiveStartKey = start
	in.Limit = aws.Int32(int32(limit))
	out, err := s.db.Query(ctx, in)
	if err != nil {
		return nil, nil, fmt.Errorf("query user words: %w", err)
	}
	recs = make([]userWordRecord, len(out.Items))
	for i, it := range out.Items {
		if err := unmarshal(it, &recs[i]); err != nil {
			return nil, nil, err
		}
	}
	if len(out.LastEvaluatedKey) == 0 {
		return recs, nil, nil
	}
	return recs, out.LastEvaluatedKey, nil
}

// wordReadLimit is the Limit of every Query of a word's items: bound+1
// items, enough to learn that a word is too broad when each person has one
// item of it. A person may have several (the words "anna" and
// "anna.jansen" both start with "anna"), so a word naming at most the
// bound can have more items; each further Query reads bound+1 again
// rather than the people still missing, which near the bound would read
// one item a request.
func (s *Store) wordReadLimit() int { return s.searchBound + 1 }

// wordPrefixCandidates returns the users with a word starting with
// prefix, reading at most searchBound+1 of them from their word items;
// complete is false when there are more than searchBound. Without
// withWords their words are not read: each candidate then carries prefix
// as its one known word (it has a word starting with it), which is all a
// query made of prefix and prefixes of it asks.
func (s *Store) wordPrefixCandidates(ctx context.Context, prefix string, withWords bool) (candidates []searchCandidate, complete bool, err error) {
	attrs := []string{"userId", "listingSk"}
	if withWords {
		attrs = append(attrs, "words")
	}
	seen := map[int64]bool{}
	var start item
	for {
		recs, next, err := s.queryWordItems(ctx, prefix, start, s.wordReadLimit(), attrs...)
		if err != nil {
			return nil, false, err
		}
		if !withWords {
			for i := range recs {
				// An item of an older version (no sort key) keeps no
				// words and so matches nothing, as when words are read.
				if recs[i].ListingSK != "" {
					recs[i].Words = []string{prefix}
				}
			}
		}
		candidates = appendCandidates(candidates, seen, recs)
		if len(candidates) > s.searchBound {
			return candidates, false, nil
		}
		if next == nil {
			return candidates, true, nil
		}
		start = next
	}
}

// appendCandidates adds the users of word items not seen yet.
func appendCandidates(candidates []searchCandidate, seen map[int64]bool, recs []userWordRecord) []searchCandidate {
	for _, rec := range recs {
		if !seen[rec.UserID] {
			seen[rec.UserID] = true
			candidates = append(candidates, searchCandidate{ID: rec.UserID, ListingSK: rec.ListingSK, Words: rec.Words})
		}
	}
	return candidates
}
