package mail

import (
	"testing"
	"time"
)

func testReminder(lang string, daysLeft int) Reminder {
	return Reminder{
		Language: lang,
		To:       "guest@example.org",
		UserName: "Grace Guest",
		Role:     RoleInfo{Name: "Researchers", Applications: []AppInfo{{Name: "Wiki", LandingPage: "https://wiki.example.org/start"}}},
		EndDate:  date(2027, time.January, 2),
		DaysLeft: daysLeft,
	}
}

func TestReminderPerLanguage(t *testing.T) {
	tests := []struct {
		lang     string
		daysLeft int
		subject  string
		phrases  []string // in both HTML and text
	}{
		{"en", 5, "Your access to Researchers ends in 5 days", []string{"Hello Grace Guest,", "Researchers", "2 January 2027", "in 5 days", "Wiki"}},
		{"en", 1, "Your access to Researchers ends in 1 day", []string{"in 1 day."}},
		{"en", 0, "Your access to Researchers ends today", []string{"2 January 2027", ", today."}},
		{"nl", 5, "Je toegang tot Researchers verloopt over 5 dagen", []string{"Hallo Grace Guest,", "Researchers", "2 januari 2027", "over 5 dagen", "Wiki"}},
		{"nl", 1, "Je toegang tot Researchers verloopt over 1 dag", []string{"over 1 dag."}},
		{"nl", 0, "Je toegang tot Researchers verloopt vandaag", []string{"2 januari 2027", ", vandaag."}},
		{"de", 5, "Your access to Researchers ends in 5 days", []string{"2 January 2027"}},
	}
	r := newTestRenderer(t)
	for _, tt := range tests {
		t.Run(tt.subject, func(t *testing.T) {
			e, err := r.Reminder(testReminder(tt.lang, tt.daysLeft))
			assertRendered(t, e, err, tt.subject, tt.phrases, tt.phrases)
			assertNotContains(t, "text", e.Text, "<strong>", "<p>")
		})
	}
}

func TestReminderEscapesUntrustedInput(t *testing.T) {
	r := newTestRenderer(t)
	for _, lang := range supportedLanguages {
		t.Run(lang, func(t *testing.T) {
			m := testReminder(lang, 5)
			m.Role.Name, m.UserName = xss, xss
			e, err := r.Reminder(m)
			if err != nil {
				t.Fatal(err)
			}
			assertNotContains(t, "HTML", e.HTML, "<script")
			assertContains(t, "HTML", e.HTML, "&lt;script&gt;")
			assertContains(t, "text", e.Text, xss)
			assertContains(t, "subject", e.Subject, xss) // a subject is plain text too
		})
	}
}

func TestReminderRequiresRecipient(t *testing.T) {
	m := testReminder("en", 5)
	m.To = ""
	if _, err := newTestRenderer(t).Reminder(m); err == nil {
		t.Error("Reminder succeeded without a recipient")
	}
}
