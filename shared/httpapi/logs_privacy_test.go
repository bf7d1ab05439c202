package httpapi_test

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"strings"
	"testing"

	"github.com/edu-invite/invite/shared/domain"
	"github.com/edu-invite/invite/shared/mail"
	"github.com/edu-invite/invite/shared/testkit"
)

// quotingMailer refuses every mail the way SES does, naming the recipient.
type quotingMailer struct{}

func (quotingMailer) Send(_ context.Context, e domain.Email) error {
	return errors.New("MessageRejected: Email address is not verified. The following identities failed the check: " + e.To)
}

// TestLogsCarryIDsNotPersonalData drives operations that log who did them
// and operations whose outside systems quote addresses, as people and as a
// token, and reads the whole log (with no redaction in the handler, so the
// code's own choices are tested): no caller's e-mail address or eppn, and
// no recipient's address, appears; the actors appear as ids.
func TestLogsCarryIDsNotPersonalData(t *testing.T) {
	w := newWorld(t)
	logs := &testkit.LogBuffer{}
	logger := slog.New(slog.NewJSONHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	w.Svc.Logger = logger
	previous := slog.Default()
	slog.SetDefault(logger)
	t.Cleanup(func() { slog.SetDefault(previous) })
	renderer, err := mail.NewRenderer("Invite")
	if err != nil {
		t.Fatal(err)
	}
	w.Svc.Mailer, w.Svc.Renderer = quotingMailer{}, renderer

	ok := func(rec interface{ Result() *http.Response }, what string) {
		t.Helper()
		if code := rec.Result().StatusCode; code >= 300 {
			t.Fatalf("%s: %d", what, code)
		}
	}
	// A person deletes an API token; a super user repairs dates, changes
	// and imports the registry.
	w.generate("instAdmin")
	created := decode[map[string]any](t, w.do("instAdmin", "POST", "/api/v1/tokens", `{"description":"log test"}`))
	ok(w.do("instAdmin", "DELETE", "/api/v1/tokens/"+itoa(int64(created["id"].(float64))), ""), "delete token")
	ok(w.do("super", "POST", "/api/v1/system/date-repair", ""), "date repair")
	ok(w.do("super", "POST", "/api/v1/manage/registry/connections", `{"id": "log-sp", "baseUrl": "https://n.example.org", "auth": {"method": "bearer"}, "secret": "tok"}`), "create connection")
	ok(w.do("super", "POST", "/api/v1/manage/registry/applications", `{"manageId": "log-app", "manageType": "SAML20_SP", "provisionings": ["log-sp"]}`), "create application")
	ok(w.do("super", "DELETE", "/api/v1/manage/registry/applications/log-app", ""), "delete application")
	// Invitations whose e-mails the mail service refuses, quoting the
	// recipient; the sweep's retry logs the refusal again.
	const recipient = "guest.marker@guests.example.net"
	ok(w.do("inviter", "POST", "/api/v1/invitations", `{"intendedAuthority":"GUEST","invites":["`+recipient+`"],"roleIdentifiers":[{roleA}],"expiryDate":{futureDate}}`), "invite")
	ok(w.do("orgToken", "POST", "/api/v1/invitations", `{"intendedAuthority":"GUEST","invites":["other.`+recipient+`"],"roleIdentifiers":[{roleA}],"expiryDate":{futureDate}}`), "invite by token")
	if _, err := w.Svc.SendPendingMails(context.Background(), w.Now.Add(domain.MaxMailAttempts*60*60*1e9)); err != nil {
		t.Fatal(err)
	}

	log := logs.String()
	if !strings.Contains(log, `"by":"user `+itoa(w.Users["instAdmin"].ID)+`"`) || !strings.Contains(log, `"by":"user `+itoa(w.Users["super"].ID)+`"`) || !strings.Contains(log, "e-mail not sent") {
		t.Fatalf("the operations did not log what this test reads:\n%s", log)
	}
	personal := []string{recipient}
	for _, c := range callers {
		p := personOf(c)
		personal = append(personal, p.Email, p.EduPersonPrincipalName)
	}
	for _, v := range personal {
		if strings.Contains(log, v) {
			t.Errorf("the log holds %q", v)
		}
	}
	if t.Failed() {
		t.Log(log)
	}
}
