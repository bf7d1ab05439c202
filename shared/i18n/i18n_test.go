package i18n

import (
	"slices"
	"testing"
	"time"
)

func TestCatalogueComplete(t *testing.T) {
	en := Keys("en")
	for _, lang := range Languages[1:] {
		if got := Keys(lang); !slices.Equal(got, en) {
			t.Errorf("%s has keys %v, en has %v", lang, got, en)
		}
	}
}

func TestFromAcceptLanguage(t *testing.T) {
	tests := map[string]string{
		"":                          "en",
		"nl-NL,nl;q=0.9,en;q=0.8":   "nl",
		"fr-FR, en;q=0.5, nl;q=0.7": "nl",
		"de":                        "en",
		"en-GB,en;q=0.9":            "en",
	}
	for header, want := range tests {
		if got := FromAcceptLanguage(header); got != want {
			t.Errorf("FromAcceptLanguage(%q) = %q, want %q", header, got, want)
		}
	}
}

func TestPhrases(t *testing.T) {
	if got := Authority("nl", "GUEST"); got != "als gast" {
		t.Errorf("Authority(nl, GUEST) = %q", got)
	}
	if got := Authority("en", "inviter"); got != "as an inviter" {
		t.Errorf("Authority(en, inviter) = %q", got)
	}
	d := time.Date(2027, 1, 2, 23, 0, 0, 0, time.UTC)
	if got := Date("nl", d); got != "2 januari 2027" {
		t.Errorf("Date(nl) = %q", got)
	}
	if got := T("fr", "inv.invitedBy", "Ann", Authority("fr", "GUEST")); got != "Ann invited you as a guest to:" {
		t.Errorf("fallback = %q", got)
	}
}

// TestPluralForms: a message about a count takes the language's plural
// form (CLDR rules: one for 1, other for 0 and more than 1), with the
// other arguments in place.
func TestPluralForms(t *testing.T) {
	for _, c := range []struct {
		lang, key string
		args      []any
		want      string
	}{
		{"en", "console.role.days", []any{1}, "1 day"},
		{"en", "console.role.days", []any{2}, "2 days"},
		{"en", "console.role.days", []any{0}, "0 days"},
		{"nl", "console.role.days", []any{1}, "1 dag"},
		{"nl", "console.role.days", []any{30}, "30 dagen"},
		{"en", "console.ops.count", []any{1, "3 minutes"}, "1 failed delivery, 3 minutes old."},
		{"en", "console.ops.count", []any{4, "2 hours"}, "4 failed deliveries, the oldest 2 hours old."},
		{"nl", "console.roledelete.members", []any{1}, "de toegang van 1 lid beëindigen"},
		{"fr", "console.role.days", []any{1}, "1 day"}, // an unsupported language reads English
		{"en", "console.search", nil, "Search"},        // a plain message stays as it is
	} {
		if got := T(c.lang, c.key, c.args...); got != c.want {
			t.Errorf("T(%s, %s, %v) = %q, want %q", c.lang, c.key, c.args, got, c.want)
		}
	}
}
