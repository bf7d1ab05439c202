package service_test

import (
	"context"
	"testing"
	"time"

	"github.com/edu-invite/invite/shared/auth"
	"github.com/edu-invite/invite/shared/domain"
	"github.com/edu-invite/invite/shared/service"
)

// sentMail puts a mail in the outbox and sends it, as a request does, and
// returns its id; the mailer must have seen the id as the mail's Ref.
func sentMail(t *testing.T, s *service.Service, mailer *flakyMailer, id string) {
	t.Helper()
	ctx := context.Background()
	if err := s.Store.PutMails(ctx, []domain.MailDelivery{{ID: id, Email: domain.Email{To: id + "@example.org", Subject: "Hi"}, CreatedAt: now}}); err != nil {
		t.Fatal(err)
	}
	if res, err := s.SendPendingMails(ctx, now.Add(time.Minute)); err != nil || res.Sent != 1 {
		t.Fatalf("send %s: %+v, %v", id, res, err)
	}
	if got := mailer.sent[len(mailer.sent)-1].Ref; got != id {
		t.Fatalf("mail sent with ref %q, want %q", got, id)
	}
}

func TestHandleMailEvent(t *testing.T) {
	tests := []struct {
		name        string
		event       domain.MailEvent
		wantStatus  domain.MailStatus
		wantResent  bool
		wantIgnored bool
	}{
		{"permanent bounce: never sent again", domain.MailEvent{Kind: domain.MailEventBounce, Permanent: true, Reason: "Permanent/General 5.1.1"},
			domain.MailBounced, false, false},
		{"transient bounce: the sweep sends it again", domain.MailEvent{Kind: domain.MailEventBounce, Reason: "Transient/MailboxFull"},
			domain.MailSent, true, false},
		{"complaint: recorded", domain.MailEvent{Kind: domain.MailEventComplaint, Permanent: true, Reason: "abuse"},
			domain.MailComplained, false, false},
		{"unknown kind: ignored", domain.MailEvent{Kind: "open"}, domain.MailSent, false, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s, _ := newService(t)
			mailer := &flakyMailer{}
			s.Mailer = mailer
			ctx := context.Background()
			sentMail(t, s, mailer, "m1")
			ev := tc.event
			ev.Ref = "m1"
			res, err := s.HandleMailEvent(ctx, ev)
			if err != nil {
				t.Fatal(err)
			}
			if (res.Ignored != "") != tc.wantIgnored {
				t.Fatalf("result %+v, want ignored=%v", res, tc.wantIgnored)
			}
			if _, err := s.SendPendingMails(ctx, now.Add(time.Hour)); err != nil {
				t.Fatal(err)
			}
			if resent := len(mailer.sent) == 2; resent != tc.wantResent {
				t.Fatalf("sent %d times, want resent=%v", len(mailer.sent), tc.wantResent)
			}
			m, err := s.Store.GetMail(ctx, "m1")
			if err != nil {
				t.Fatal(err)
			}
			if m.Status != tc.wantStatus {
				t.Fatalf("status %s, want %s", m.Status, tc.wantStatus)
			}
			if !tc.wantIgnored && m.Status != domain.MailSent && m.LastError != string(ev.Kind)+": "+ev.Reason {
				t.Fatalf("last error %q", m.LastError)
			}
			// The same event again (EventBridge delivers at least once)
			// changes nothing more.
			again, err := s.HandleMailEvent(ctx, ev)
			if err != nil || (again.Ignored == "" && !tc.wantResent) {
				t.Fatalf("repeat: %+v, %v", again, err)
			}
		})
	}
}

func TestHandleMailEventIgnoresForeignAndUnknownMails(t *testing.T) {
	s, _ := newService(t)
	for _, ev := range []domain.MailEvent{{Kind: domain.MailEventBounce, Permanent: true}, {Kind: domain.MailEventBounce, Ref: "gone", Permanent: true}} {
		res, err := s.HandleMailEvent(context.Background(), ev)
		if err != nil || res.Ignored == "" {
			t.Fatalf("%+v: %+v, %v", ev, res, err)
		}
	}
}

// A transient bounce of a mail that used up its attempts ends failed,
// visible to an operator, who retries it after fixing the cause.
func TestTransientBounceAtTheLimitFailsAndOperatorRetries(t *testing.T) {
	s, _ := newService(t)
	mailer := &flakyMailer{fail: domain.MaxMailAttempts - 1}
	s.Mailer = mailer
	ctx := context.Background()
	if err := s.Store.PutMails(ctx, []domain.MailDelivery{{ID: "m1", Email: domain.Email{To: "a@example.org"}, CreatedAt: now}}); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < domain.MaxMailAttempts; i++ {
		if _, err := s.SendPendingMails(ctx, now.Add(time.Minute)); err != nil {
			t.Fatal(err)
		}
	}
	if len(mailer.sent) != 1 {
		t.Fatalf("sent %d", len(mailer.sent))
	}
	if _, err := s.HandleMailEvent(ctx, domain.MailEvent{Kind: domain.MailEventBounce, Ref: "m1", Reason: "Transient/General"}); err != nil {
		t.Fatal(err)
	}
	failed, err := s.UndeliveredMails(ctx, root, domain.MailFailed, 10)
	if err != nil || len(failed) != 1 || failed[0].ID != "m1" {
		t.Fatalf("failed mails %+v, %v", failed, err)
	}

	guest := &auth.Principal{Kind: auth.KindPerson, User: &domain.User{ID: 5}}
	if _, err := s.RetryFailedMails(ctx, guest, []string{"m1"}); domain.KindOf(err) != domain.KindForbidden {
		t.Fatalf("a non-super user retried: %v", err)
	}
	if _, err := s.UndeliveredMails(ctx, root, domain.MailSent, 10); domain.KindOf(err) != domain.KindInvalid {
		t.Fatalf("listing sent mails: %v", err)
	}
	n, err := s.RetryFailedMails(ctx, root, []string{"m1"})
	if err != nil || n != 1 {
		t.Fatalf("retry: %d, %v", n, err)
	}
	if _, err := s.SendPendingMails(ctx, now.Add(time.Minute)); err != nil {
		t.Fatal(err)
	}
	m, _ := s.Store.GetMail(ctx, "m1")
	if len(mailer.sent) != 2 || m.Status != domain.MailSent {
		t.Fatalf("after retry: sent %d, status %s", len(mailer.sent), m.Status)
	}
	if _, err := s.RetryFailedMails(ctx, root, []string{"m1"}); domain.KindOf(err) != domain.KindConflict {
		t.Fatalf("retrying a sent mail: %v", err)
	}
}
