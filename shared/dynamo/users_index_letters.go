package dynamo

import "slices"

// The first letters of a user's words are search items too: a one-letter
// query means "a word starting with this letter" (it finds "de Vries" by
// v), and the words starting with a letter lie in as many partitions as
// there are second letters. A letter item is a word item whose word is
// the letter (UWORD#v / v#<userId>): the key a one-letter word of the user
// has, so the two are one item, and the partition of a letter holds every
// user with a word starting with it, read like any word's prefix and
// bounded by the search bound like it. Letters are derived from the words
// (at most maxUserWords), so they are at most as many.

// userLetters are the first letters of words, distinct, sorted, leaving
// out those that are words themselves (their item is already there).
func userLetters(words []string) []string {
	var letters []string
	for _, w := range words {
		r := []rune(w)
		if len(r) < 2 {
			continue
		}
		letter := string(r[:1])
		if !slices.Contains(words, letter) && !slices.Contains(letters, letter) {
			letters = append(letters, letter)
		}
	}
	slices.Sort(letters)
	return letters
}
