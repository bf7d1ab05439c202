package mail

import (
	"strings"
	"testing"
	"time"

	"github.com/edu-invite/invite/shared/domain"
)

const product = "Invite"

// xss is untrusted input that must never reach the HTML part unescaped.
const xss = "<script>alert(1)</script>"

func newTestRenderer(t *testing.T) *Renderer {
	t.Helper()
	r, err := NewRenderer(product)
	if err != nil {
		t.Fatalf("NewRenderer: %v", err)
	}
	return r
}

func date(y int, m time.Month, d int) time.Time { return time.Date(y, m, d, 12, 0, 0, 0, time.UTC) }

// assertRendered checks an e-mail rendered for the test messages, which
// all go to guest@example.org: no error, the recipient, the subject and the
// phrases of its HTML and text parts.
func assertRendered(t *testing.T, e domain.Email, err error, subject string, html, text []string) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
	if e.To != "guest@example.org" {
		t.Errorf("To = %q", e.To)
	}
	if e.Subject != subject {
		t.Errorf("Subject = %q, want %q", e.Subject, subject)
	}
	assertContains(t, "HTML", e.HTML, html...)
	assertContains(t, "text", e.Text, text...)
}

func assertContains(t *testing.T, part, s string, phrases ...string) {
	t.Helper()
	for _, p := range phrases {
		if !strings.Contains(s, p) {
			t.Errorf("%s does not contain %q:\n%s", part, p, s)
		}
	}
}

func assertNotContains(t *testing.T, part, s string, phrases ...string) {
	t.Helper()
	for _, p := range phrases {
		if strings.Contains(s, p) {
			t.Errorf("%s contains %q:\n%s", part, p, s)
		}
	}
}
