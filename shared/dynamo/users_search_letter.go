package dynamo

import (
	"context"
	"slices"
)

// A one-letter query word matches every word that starts with it, as a
// longer one does ("v" finds "de Vries"). Word items are partitioned by
// their first two letters, so the words starting with a letter are in the
// partition of the one-letter word and in one partition per second
// character: the letters a–z, the digits and the lower-case letters of
// Latin-1 are read (words whose second character is another letter are
// found only when the name starts with the letter). That is up to 69 small
// Queries, stopped at maxSearchMatches users; one-letter searches are rare.
var secondCharacters = func() []rune {
	var out []rune
	for r := 'a'; r <= 'z'; r++ {
		out = append(out, r)
	}
	for r := '0'; r <= '9'; r++ {
		out = append(out, r)
	}
	for r := rune(0xdf); r <= 0xff; r++ {
		if r != 0xf7 { // ÷
			out = append(out, r)
		}
	}
	return out
}()

// letterWordCandidates are the users with a word starting with letter.
func (s *Store) letterWordCandidates(ctx context.Context, letter string) ([]searchCandidate, error) {
	seen := map[int64]bool{}
	var out []searchCandidate
	add := func(cs []searchCandidate) {
		for _, c := range cs {
			if !seen[c.ID] && len(out) < maxSearchMatches {
				seen[c.ID] = true
				out = append(out, c)
			}
		}
	}
	prefixes := []string{letter}
	for _, r := range secondCharacters {
		prefixes = append(prefixes, letter+string(r))
	}
	for _, prefix := range prefixes {
		if len(out) >= maxSearchMatches {
			break
		}
		found, err := s.wordPrefixCandidates(ctx, prefix)
		if err != nil {
			return nil, err
		}
		add(found)
	}
	return out, nil
}

// letterCandidates are the users with a name starting with letter and
// those with a word starting with it.
func (s *Store) letterCandidates(ctx context.Context, letter string) ([]searchCandidate, error) {
	byName, err := s.namePrefixCandidates(ctx, letter)
	if err != nil {
		return nil, err
	}
	byWord, err := s.letterWordCandidates(ctx, letter)
	if err != nil {
		return nil, err
	}
	return mergeCandidates(byName, byWord), nil
}

// mergeCandidates is a and b without repeats, at most maxSearchMatches,
// keeping a candidate that knows its sort key over one that does not.
func mergeCandidates(a, b []searchCandidate) []searchCandidate {
	at := map[int64]int{}
	out := make([]searchCandidate, 0, len(a)+len(b))
	for _, c := range slices.Concat(a, b) {
		if i, ok := at[c.ID]; ok {
			if !out[i].known() && c.known() {
				out[i] = c
			}
			continue
		}
		if len(out) < maxSearchMatches {
			at[c.ID] = len(out)
			out = append(out, c)
		}
	}
	return out
}
