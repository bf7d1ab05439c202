package mail

import "testing"

func testAccessEnded(lang string) AccessEnded {
	return AccessEnded{
		Language: lang,
		To:       "guest@example.org",
		UserName: "Grace Guest",
		Role:     RoleInfo{Name: "Researchers", Applications: []AppInfo{{Name: "Wiki", LandingPage: "https://wiki.example.org/start"}}},
	}
}

func TestAccessEndedPerLanguage(t *testing.T) {
	tests := []struct {
		lang    string
		subject string
		phrases []string // in both HTML and text
	}{
		{"en", "Your access to Researchers has ended", []string{"Hello Grace Guest,", "Researchers", "has ended", "You can no longer use", "Wiki"}},
		{"nl", "Je toegang tot Researchers is beëindigd", []string{"Hallo Grace Guest,", "Researchers", "is beëindigd", "niet meer gebruiken", "Wiki"}},
		{"es", "Your access to Researchers has ended", []string{"Hello Grace Guest,"}},
	}
	r := newTestRenderer(t)
	for _, tt := range tests {
		t.Run(tt.lang, func(t *testing.T) {
			e, err := r.AccessEnded(testAccessEnded(tt.lang))
			assertRendered(t, e, err, tt.subject, tt.phrases, tt.phrases)
		})
	}
}

func TestAccessEndedWithoutUserName(t *testing.T) {
	m := testAccessEnded("en")
	m.UserName = ""
	e, err := newTestRenderer(t).AccessEnded(m)
	if err != nil {
		t.Fatal(err)
	}
	assertContains(t, "HTML", e.HTML, "<p>Hello,</p>")
	assertContains(t, "text", e.Text, "Hello,\n")
}

func TestAccessEndedEscapesUntrustedInput(t *testing.T) {
	r := newTestRenderer(t)
	for _, lang := range supportedLanguages {
		t.Run(lang, func(t *testing.T) {
			m := testAccessEnded(lang)
			m.Role.Name = xss
			e, err := r.AccessEnded(m)
			if err != nil {
				t.Fatal(err)
			}
			assertNotContains(t, "HTML", e.HTML, "<script")
			assertContains(t, "HTML", e.HTML, "&lt;script&gt;alert(1)&lt;/script&gt;")
			assertContains(t, "text", e.Text, xss)
			assertNotContains(t, "text", e.Text, "&lt;")
		})
	}
}
