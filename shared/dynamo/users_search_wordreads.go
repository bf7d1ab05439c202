package dynamo

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/aws/aws-sdk-go-v2/aws"
)

// The reads of a word's items (UWORD#<two letters>, begins_with <word>).
// Every read costs DynamoDB the same read units per item, whatever it
// returns; they differ in what crosses the wire and is decoded, which is
// most of a read's time on DynamoDB Local:
//
//   - wordPrefixCandidates: each user's id and sort key, and its words
//     when the query has words the read word does not imply (a few
//     hundred bytes an item with them, some tens without);
//   - countWordPeople: the ids only (a few bytes an item), to learn whether
//     a word names at most searchBound people, exactly: a person with two
//     words starting with the prefix ("anna" and "anna.jansen") has two
//     items, so a COUNT of items (Select COUNT) would overstate the people
//     a prefix names and call a word too broad that is not.

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

// countWordPeople counts the people with a word starting with prefix,
// from their ids only, up to searchBound+1; complete is true when they are
// at most searchBound.
func (s *Store) countWordPeople(ctx context.Context, prefix string) (people int, complete bool, err error) {
	seen := map[int64]bool{}
	var start item
	for {
		recs, next, err := s.queryWordItems(ctx, prefix, start, s.wordReadLimit(), "userId")
		if err != nil {
			return 0, false, err
		}
		for _, rec := range recs {
			seen[rec.UserID] = true
		}
		if len(seen) > s.searchBound {
			return len(seen), false, nil
		}
		if next == nil {
			return len(seen), true, nil
		}
		start = next
	}
}

// allTogether runs each of n calls in a goroutine of its own (callers keep
// n small: one per key word) and returns their errors joined; the first
// error cancels the others' context.
func allTogether(ctx context.Context, n int, call func(ctx context.Context, i int) error) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			if errs[i] = call(ctx, i); errs[i] != nil {
				cancel()
			}
		})
	}
	wg.Wait()
	// A call canceled by another's failure only repeats it.
	for i, err := range errs {
		if errors.Is(err, context.Canceled) && ctx.Err() != nil {
			errs[i] = nil
		}
	}
	if err := errors.Join(errs...); err != nil {
		return err
	}
	return ctx.Err()
}
