package httpapi_test

import (
	"context"
	"strings"
	"testing"

	"github.com/edu-invite/invite/shared/domain"
)

func TestUndeliveredMailsAPI(t *testing.T) {
	w := newWorld(t)
	ctx := context.Background()
	err := w.Store.PutMails(ctx, []domain.MailDelivery{
		{ID: "b1", Email: domain.Email{To: "gone@example.org", Subject: "Invitation", HTML: "<p>secret link</p>"}, Status: domain.MailSent, CreatedAt: w.Now},
		{ID: "f1", Email: domain.Email{To: "x@example.org", Subject: "Reminder"}, Status: domain.MailFailed, Attempts: domain.MaxMailAttempts, CreatedAt: w.Now},
	})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Svc.HandleMailEvent(ctx, domain.MailEvent{Kind: domain.MailEventBounce, Ref: "b1", Permanent: true, Reason: "Permanent/General 5.1.1"}); err != nil {
		t.Fatal(err)
	}

	rec := w.do("super", "GET", "/api/v1/system/mails?status=bounced", "")
	got := decode[[]map[string]any](t, rec)
	if rec.Code != 200 || len(got) != 1 || got[0]["id"] != "b1" || got[0]["to"] != "gone@example.org" ||
		got[0]["status"] != "bounced" || got[0]["reason"] != "bounce: Permanent/General 5.1.1" {
		t.Fatalf("%d %s", rec.Code, rec.Body.String())
	}
	if strings.Contains(rec.Body.String(), "secret link") {
		t.Fatal("the listing shows the mail's content")
	}

	rec = w.do("super", "GET", "/api/v1/system/mails?status=sent", "")
	if rec.Code != 400 {
		t.Fatalf("status=sent: %d", rec.Code)
	}
	rec = w.do("super", "POST", "/api/v1/system/mails/retry", `{"ids":["b1"]}`)
	if rec.Code != 409 {
		t.Fatalf("retrying a bounced mail: %d %s", rec.Code, rec.Body.String())
	}
	rec = w.do("superToken", "POST", "/api/v1/system/mails/retry", `{"ids":["f1"]}`)
	if rec.Code != 200 || decode[map[string]int](t, rec)["retried"] != 1 {
		t.Fatalf("retry: %d %s", rec.Code, rec.Body.String())
	}
	if m, _ := w.Store.GetMail(ctx, "f1"); m.Status != domain.MailPending || m.Attempts != 0 {
		t.Fatalf("after retry: %+v", m)
	}
}
