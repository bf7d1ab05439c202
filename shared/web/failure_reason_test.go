package web

import (
	"testing"

	"github.com/edu-invite/invite/shared/i18n"
)

// TestFailureReasonInPlainWords: a recorded delivery failure is told by
// the SP's answer, also when it was passed on from the delivery it waited
// for, never as the technical text.
func TestFailureReasonInPlainWords(t *testing.T) {
	for _, c := range []struct{ lastError, key string }{
		{"user.create at sp: scim POST /Users: 401 Unauthorized: bad token", "failure.credentials"},
		{"member.add at sp: the group of role 2 is not at the SP: its creation failed: group.create at sp: scim POST /Groups: 403 Forbidden", "failure.credentials"},
		{"scim PATCH /Groups/7: 404 Not Found", "failure.notFound"},
		{"gave up after 100 attempts: scim POST /Users: 503 Service Unavailable", "failure.unavailable"},
		{"scim POST /Users: 429 Too Many Requests", "failure.unavailable"},
		{"scim POST /Users: 400 Bad Request: invalidValue", "failure.refused"},
		{"dial tcp 10.0.0.1:443: connection refused", "failure.unreachable"},
		{"", "failure.unreachable"},
	} {
		for _, lang := range i18n.Languages {
			if got, want := failureReason(lang, c.lastError), i18n.T(lang, c.key); got != want {
				t.Errorf("%s: %q = %q, want %q", lang, c.lastError, got, want)
			}
		}
	}
}
