package mail

import (
	"fmt"
	"strings"
	"time"
)

// fallbackLanguage is used for any language we have no templates for.
const fallbackLanguage = "en"

// supportedLanguages are the template directories under templates/.
var supportedLanguages = []string{"en", "nl"}

// dutchMonths are spelled out by hand: the standard library only knows English.
var dutchMonths = [...]string{
	"januari", "februari", "maart", "april", "mei", "juni",
	"juli", "augustus", "september", "oktober", "november", "december",
}

// resolveLanguage maps a requested language ("nl", "NL", "nl-BE", "fr") to one
// we have templates for, falling back to English.
func resolveLanguage(requested string) string {
	lang := strings.ToLower(strings.TrimSpace(requested))
	if i := strings.IndexAny(lang, "-_"); i >= 0 {
		lang = lang[:i]
	}
	for _, l := range supportedLanguages {
		if l == lang {
			return l
		}
	}
	return fallbackLanguage
}

// formatDate writes a date the way readers of lang expect ("2 January 2027",
// "2 januari 2027"). Dates are shown in UTC, the zone the service stores them
// in, so that the same instant never shows as two different days.
func formatDate(lang string, t time.Time) string {
	t = t.UTC()
	month := t.Month().String()
	if lang == "nl" {
		month = dutchMonths[t.Month()-1]
	}
	return fmt.Sprintf("%d %s %d", t.Day(), month, t.Year())
}
