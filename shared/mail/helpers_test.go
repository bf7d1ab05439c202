package mail

import (
	"strings"
	"testing"
	"time"
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
