package mail

import (
	"testing"
	"time"
)

func TestResolveLanguage(t *testing.T) {
	tests := []struct{ requested, want string }{
		{"en", "en"},
		{"nl", "nl"},
		{"NL", "nl"},
		{" nl ", "nl"},
		{"nl-BE", "nl"},
		{"nl_NL", "nl"},
		{"en-GB", "en"},
		{"fr", "en"},
		{"", "en"},
		{"dutch", "en"},
	}
	for _, tt := range tests {
		if got := resolveLanguage(tt.requested); got != tt.want {
			t.Errorf("resolveLanguage(%q) = %q, want %q", tt.requested, got, tt.want)
		}
	}
}

func TestFormatDate(t *testing.T) {
	amsterdam := time.FixedZone("CET", 60*60)
	tests := []struct {
		name, lang string
		t          time.Time
		want       string
	}{
		{"english", "en", date(2027, time.January, 2), "2 January 2027"},
		{"dutch", "nl", date(2027, time.January, 2), "2 januari 2027"},
		{"dutch december", "nl", date(2026, time.December, 31), "31 december 2026"},
		{"dutch march", "nl", date(2027, time.March, 15), "15 maart 2027"},
		// Just after midnight in Amsterdam is still the previous day in UTC.
		{"shown in UTC", "en", time.Date(2027, time.January, 2, 0, 30, 0, 0, amsterdam), "1 January 2027"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := formatDate(tt.lang, tt.t); got != tt.want {
				t.Errorf("formatDate = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestJoinNames(t *testing.T) {
	tests := []struct {
		names []string
		want  string
	}{
		{nil, ""},
		{[]string{"A"}, "A"},
		{[]string{"A", "B"}, "A and B"},
		{[]string{"A", "B", "C"}, "A, B and C"},
	}
	for _, tt := range tests {
		if got := joinNames(tt.names, "and"); got != tt.want {
			t.Errorf("joinNames(%q) = %q, want %q", tt.names, got, tt.want)
		}
	}
}
