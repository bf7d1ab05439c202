package web

import (
	"strings"
	"testing"

	"github.com/edu-invite/invite/shared/domain"
	"github.com/edu-invite/invite/shared/i18n"
)

// TestEveryAuditActionIsTranslated: every kind of change the audit records
// has words in every language and a filter entry, never the raw code
// (GROUP_DELETED) on the page.
func TestEveryAuditActionIsTranslated(t *testing.T) {
	for _, a := range domain.AuditActions {
		for _, lang := range i18n.Languages {
			key := "console.audit.action." + string(a)
			if got := i18n.T(lang, key); got == key || strings.Contains(got, string(a)) {
				t.Errorf("%s in %s reads %q", a, lang, got)
			}
		}
		found := false
		for _, f := range auditActions {
			found = found || f == a
		}
		if !found {
			t.Errorf("%s has no filter entry", a)
		}
	}
}
