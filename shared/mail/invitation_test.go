package mail

import (
	"strings"
	"testing"
	"time"
)

const acceptURL = "https://invite.example.org/invitation/accept?hash=s3cr3t"

func testInvitation(lang string) Invitation {
	end := date(2027, time.March, 1)
	return Invitation{
		Language:    lang,
		To:          "guest@example.org",
		InviterName: "Mary Manager",
		Message:     "Welcome to the project!",
		Roles: []RoleInfo{
			{Name: "Researchers", Applications: []AppInfo{
				{Name: "Wiki", LandingPage: "https://wiki.example.org/start"},
				{Name: "Archive"},
			}},
			{Name: "Teachers", Applications: []AppInfo{{Name: "LMS", LandingPage: "https://lms.example.org/"}}},
		},
		ExpiresAt:   date(2027, time.January, 2),
		RoleEndDate: &end,
		URL:         acceptURL,
	}
}

func TestInvitationPerLanguage(t *testing.T) {
	tests := []struct {
		lang        string
		subject     string
		htmlPhrases []string
		textPhrases []string
	}{
		{
			lang:        "en",
			subject:     "You have been invited to Researchers and Teachers",
			htmlPhrases: []string{`<html lang="en">`, "Mary Manager has invited you", "Personal message from Mary Manager", "Welcome to the project!", "Your access will end on 1 March 2027.", "This invitation expires on 2 January 2027.", "Accept the invitation</a>", "This e-mail was sent by Invite."},
			textPhrases: []string{"Mary Manager has invited you to these roles in Invite:", "- Researchers", "- Teachers", "Personal message from Mary Manager:", "Welcome to the project!", "Your access will end on 1 March 2027.", "Accept the invitation before 2 January 2027:\n" + acceptURL},
		},
		{
			lang:        "nl",
			subject:     "Je bent uitgenodigd voor Researchers en Teachers",
			htmlPhrases: []string{`<html lang="nl">`, "Mary Manager heeft je uitgenodigd", "Persoonlijk bericht van Mary Manager", "Welcome to the project!", "Je toegang eindigt op 1 maart 2027.", "Deze uitnodiging verloopt op 2 januari 2027.", "Uitnodiging accepteren</a>", "Deze e-mail is verstuurd door Invite."},
			textPhrases: []string{"Mary Manager heeft je uitgenodigd voor deze rollen in Invite:", "- Researchers", "- Teachers", "Persoonlijk bericht van Mary Manager:", "Je toegang eindigt op 1 maart 2027.", "Accepteer de uitnodiging vóór 2 januari 2027:\n" + acceptURL},
		},
	}
	r := newTestRenderer(t)
	for _, tt := range tests {
		t.Run(tt.lang, func(t *testing.T) {
			e, err := r.Invitation(testInvitation(tt.lang))
			assertRendered(t, e, err, tt.subject, tt.htmlPhrases, tt.textPhrases)
		})
	}
}

func TestInvitationUnknownLanguageFallsBackToEnglish(t *testing.T) {
	r := newTestRenderer(t)
	for _, lang := range []string{"", "fr", "xx-YY"} {
		t.Run(lang, func(t *testing.T) {
			e, err := r.Invitation(testInvitation(lang))
			if err != nil {
				t.Fatal(err)
			}
			if want := "You have been invited to Researchers and Teachers"; e.Subject != want {
				t.Errorf("Subject = %q, want %q", e.Subject, want)
			}
			assertContains(t, "HTML", e.HTML, `<html lang="en">`, "2 January 2027")
			assertContains(t, "text", e.Text, "Accept the invitation before 2 January 2027")
		})
	}
}

func TestInvitationOptionalParts(t *testing.T) {
	m := testInvitation("en")
	m.InviterName, m.Message, m.RoleEndDate = "", "", nil
	m.Roles = m.Roles[:1]
	e, err := newTestRenderer(t).Invitation(m)
	if err != nil {
		t.Fatal(err)
	}
	if want := "You have been invited to Researchers"; e.Subject != want {
		t.Errorf("Subject = %q, want %q", e.Subject, want)
	}
	assertContains(t, "text", e.Text, "You have been invited to the role in Invite:")
	assertNotContains(t, "HTML", e.HTML, "Personal message", "Your access will end", "<blockquote")
	assertNotContains(t, "text", e.Text, "Personal message", "Your access will end")
}

func TestInvitationEscapesUntrustedInput(t *testing.T) {
	tests := []struct {
		field  string
		inject func(*Invitation)
	}{
		{"message", func(m *Invitation) { m.Message = "Hi " + xss }},
		{"role name", func(m *Invitation) { m.Roles[0].Name = xss }},
		{"inviter name", func(m *Invitation) { m.InviterName = xss }},
		{"application name", func(m *Invitation) { m.Roles[0].Applications[0].Name = xss }},
	}
	r := newTestRenderer(t)
	for _, lang := range supportedLanguages {
		for _, tt := range tests {
			t.Run(lang+"/"+tt.field, func(t *testing.T) {
				m := testInvitation(lang)
				tt.inject(&m)
				e, err := r.Invitation(m)
				if err != nil {
					t.Fatal(err)
				}
				assertNotContains(t, "HTML", e.HTML, "<script", xss)
				assertContains(t, "HTML", e.HTML, "&lt;script&gt;alert(1)&lt;/script&gt;")
				// Text/plain is never interpreted as markup: the input arrives as
				// typed, not entity-escaped (which would show "&lt;" to the reader).
				assertContains(t, "text", e.Text, xss)
				assertNotContains(t, "text", e.Text, "&lt;", "&#")
			})
		}
	}
}

func TestInvitationSubjectIsOneLine(t *testing.T) {
	m := testInvitation("en")
	m.Roles[0].Name = "Bad\r\nBcc: victim@example.org"
	e, err := newTestRenderer(t).Invitation(m)
	if err != nil {
		t.Fatal(err)
	}
	if strings.ContainsAny(e.Subject, "\r\n") {
		t.Errorf("Subject contains a line break: %q", e.Subject)
	}
}

func TestInvitationLinksLandingPages(t *testing.T) {
	r := newTestRenderer(t)
	for _, lang := range supportedLanguages {
		t.Run(lang, func(t *testing.T) {
			e, err := r.Invitation(testInvitation(lang))
			if err != nil {
				t.Fatal(err)
			}
			assertContains(t, "HTML", e.HTML,
				`<a href="https://wiki.example.org/start" style="color:#0b5cad;">Wiki</a>`,
				`<a href="https://lms.example.org/" style="color:#0b5cad;">LMS</a>`,
				"<li>Archive</li>", // no landing page, so no link
			)
			assertContains(t, "text", e.Text, "Wiki: https://wiki.example.org/start", "LMS: https://lms.example.org/", "* Archive\n")
		})
	}
}

// html/template refuses script URLs in href; a hostile landing page or
// accept URL must not become a clickable javascript: link.
func TestInvitationNeutralisesScriptURLs(t *testing.T) {
	m := testInvitation("en")
	m.Roles[0].Applications[0].LandingPage = "javascript:alert(1)"
	m.URL = "javascript:alert(2)"
	e, err := newTestRenderer(t).Invitation(m)
	if err != nil {
		t.Fatal(err)
	}
	assertNotContains(t, "HTML", e.HTML, "javascript:")
}

func TestInvitationAcceptURLAppearsOnceAsTheAcceptLink(t *testing.T) {
	tests := []struct{ lang, label string }{
		{"en", "Accept the invitation"},
		{"nl", "Uitnodiging accepteren"},
	}
	r := newTestRenderer(t)
	for _, tt := range tests {
		t.Run(tt.lang, func(t *testing.T) {
			e, err := r.Invitation(testInvitation(tt.lang))
			if err != nil {
				t.Fatal(err)
			}
			if n := strings.Count(e.HTML, acceptURL); n != 1 {
				t.Errorf("HTML contains the accept URL %d times, want 1", n)
			}
			start := strings.Index(e.HTML, `<a href="`+acceptURL+`"`)
			if start < 0 {
				t.Fatalf("accept URL is not a link target:\n%s", e.HTML)
			}
			if end := strings.Index(e.HTML[start:], "</a>"); end < 0 || !strings.Contains(e.HTML[start:start+end], tt.label) {
				t.Errorf("accept link is not labelled %q", tt.label)
			}
			if n := strings.Count(e.Text, acceptURL); n != 1 {
				t.Errorf("text contains the accept URL %d times, want 1", n)
			}
		})
	}
}

func TestInvitationRejectsIncompleteData(t *testing.T) {
	tests := []struct {
		name  string
		spoil func(*Invitation)
	}{
		{"no recipient", func(m *Invitation) { m.To = "" }},
		{"no roles", func(m *Invitation) { m.Roles = nil }},
		{"no accept URL", func(m *Invitation) { m.URL = " " }},
	}
	r := newTestRenderer(t)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := testInvitation("en")
			tt.spoil(&m)
			if _, err := r.Invitation(m); err == nil {
				t.Error("Invitation succeeded")
			}
		})
	}
}

// TestInstitutionAdminInvitationWithoutRoles: an invitation that grants an
// organization's institution admin authority has no roles; its mail names
// the authority and the organization, in both languages. Without an
// organization (or without an authority) it is refused.
func TestInstitutionAdminInvitationWithoutRoles(t *testing.T) {
	r := newTestRenderer(t)
	admin := func(lang string) Invitation {
		m := testInvitation(lang)
		m.Roles, m.RoleEndDate, m.Message = nil, nil, ""
		m.Authority, m.Organization = "INSTITUTION_ADMIN", "org-uni"
		return m
	}
	tests := []struct {
		lang, subject string
		html, text    []string
	}{
		{"en", "You have been invited to Invite",
			[]string{"Mary Manager has invited you as an institution administrator of org-uni in Invite.", "Accept the invitation</a>"},
			[]string{"Mary Manager has invited you as an institution administrator of org-uni in Invite.", "Accept the invitation before 2 January 2027:\n" + acceptURL}},
		{"nl", "Je bent uitgenodigd voor Invite",
			[]string{"Mary Manager heeft je als instellingsbeheerder uitgenodigd voor org-uni in Invite.", "Uitnodiging accepteren</a>"},
			[]string{"Mary Manager heeft je als instellingsbeheerder uitgenodigd voor org-uni in Invite.", acceptURL}},
	}
	for _, tt := range tests {
		t.Run(tt.lang, func(t *testing.T) {
			e, err := r.Invitation(admin(tt.lang))
			assertRendered(t, e, err, tt.subject, tt.html, tt.text)
			if strings.Contains(e.Text, "\n- ") || strings.Contains(e.HTML, "<ul>") {
				t.Errorf("a role-less invitation lists roles:\n%s", e.Text)
			}
		})
	}
	noOrg := admin("en")
	noOrg.Organization = ""
	if _, err := r.Invitation(noOrg); err == nil {
		t.Error("an invitation without roles and without an organization was rendered")
	}
	noAuthority := admin("en")
	noAuthority.Authority = ""
	if _, err := r.Invitation(noAuthority); err == nil {
		t.Error("an invitation without roles and without an authority was rendered")
	}
}
