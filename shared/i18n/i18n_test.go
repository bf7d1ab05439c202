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
