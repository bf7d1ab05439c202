package service

import (
	"slices"
	"strings"
	"unicode"
)

// searchWords splits a query into lower-case words at anything but letters
// and digits, as the names and addresses it is matched against.
func searchWords(s string) []string {
	return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
}

// matchesWordPrefixes reports whether every query word is the prefix of a
// word of one of the fields; no words match everything.
func matchesWordPrefixes(query []string, fields ...string) bool {
	var words []string
	for _, f := range fields {
		words = append(words, searchWords(f)...)
	}
	for _, q := range query {
		if !slices.ContainsFunc(words, func(w string) bool { return strings.HasPrefix(w, q) }) {
			return false
		}
	}
	return true
}
