package mail

import (
	"strings"
	"time"

	"github.com/edu-invite/invite/shared/i18n"
)

// fallbackLanguage is used for any language we have no templates for.
const fallbackLanguage = "en"

// supportedLanguages are the template directories under templates/.
var supportedLanguages = []string{"en", "nl"}

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
// "2 januari 2027"), from the catalogue the pages use too.
func formatDate(lang string, t time.Time) string { return i18n.Date(lang, t) }
