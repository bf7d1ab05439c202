package web

import (
	"context"
	"strings"
	"testing"

	"github.com/edu-invite/invite/shared/domain"
	"github.com/edu-invite/invite/shared/i18n"
	"github.com/edu-invite/invite/shared/service"
	"github.com/edu-invite/invite/shared/testkit"
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

// TestAuditPageOffersAndTranslatesEveryAction: the audit page's action
// filter has an entry for every kind, in the page's language, and an
// entry of a role change reads as words with what it was about.
func TestAuditPageOffersAndTranslatesEveryAction(t *testing.T) {
	f := newConsoleFixture(t, 1, 2)
	svc := f.pages.cfg.Service
	svc.Queue = &testkit.RecordingQueue{}
	ctx := context.Background()
	role, err := svc.GetRole(ctx, f.super, f.roleID)
	if err != nil {
		t.Fatal(err)
	}
	in := service.RoleInput{Name: "Renamed role", OrganizationGUID: role.OrganizationGUID}
	for _, u := range role.ApplicationUsages {
		in.ApplicationUsages = append(in.ApplicationUsages, service.ApplicationUsageInput{ManageID: u.Application.ManageID, ManageType: u.Application.ManageType})
	}
	if _, err := svc.UpdateRole(ctx, f.super, role.ID, in); err != nil {
		t.Fatal(err)
	}
	for _, lang := range i18n.Languages {
		code, body := serveConsole(f.pages, f.super, lang, "GET", "/console/audit", nil)
		if code != 200 {
			t.Fatalf("%s: %d", lang, code)
		}
		options := strings.Join(optionsOf(body, "action"), "|")
		for _, a := range domain.AuditActions {
			if want := string(a) + "=" + i18n.T(lang, "console.audit.action."+string(a)); !strings.Contains(options, want) {
				t.Errorf("%s: the filter lacks %q", lang, want)
			}
		}
		renamed := i18n.T(lang, "console.audit.action.ROLE_RENAMED") + " (" + i18n.T(lang, "console.audit.formerly", role.Name) + ")"
		if !strings.Contains(body, renamed) {
			t.Errorf("%s: the page lacks %q", lang, renamed)
		}
		if strings.Contains(body, ">ROLE_RENAMED") {
			t.Errorf("%s: the page shows the raw action", lang)
		}
	}
}
