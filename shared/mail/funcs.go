package mail

import "strings"

// templateFuncs are available in every template, HTML and text alike. They
// return plain strings, so html/template still escapes their results.
var templateFuncs = map[string]any{
	"join": joinNames,
}

// joinNames lists names the way a sentence does: "A", "A and B",
// "A, B and C"; conjunction is the word for "and" in the mail's language.
func joinNames(names []string, conjunction string) string {
	switch len(names) {
	case 0:
		return ""
	case 1:
		return names[0]
	}
	return strings.Join(names[:len(names)-1], ", ") + " " + conjunction + " " + names[len(names)-1]
}
