package service_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/edu-invite/invite/shared/domain"
)

type flakyMailer struct {
	fail int // fail this many sends, then succeed
	sent []domain.Email
}

func (m *flakyMailer) Send(_ context.Context, e domain.Email) error {
	if m.fail > 0 {
		m.fail--
		return errors.New("Throttling: rate exceeded")
	}
	m.sent = append(m.sent, e)
	return nil
}

func TestMailOutboxRetriesUntilSentAndGivesUpVisibly(t *testing.T) {
	s, _ := newService(t)
	mailer := &flakyMailer{fail: 2}
	s.Mailer = mailer
	ctx := context.Background()
	if err := s.Store.PutMails(ctx, []domain.MailDelivery{{ID: "m1", Email: domain.Email{To: "a@example.org", Subject: "Hi"}, CreatedAt: now}}); err != nil {
		t.Fatal(err)
	}
	for i := 1; i <= 2; i++ {
		res, err := s.SendPendingMails(ctx, now.Add(time.Minute))
		if err != nil || res.Failed != 1 || res.Sent != 0 {
			t.Fatalf("attempt %d: %+v, %v", i, res, err)
		}
	}
	res, err := s.SendPendingMails(ctx, now.Add(time.Minute))
	if err != nil || res.Sent != 1 || len(mailer.sent) != 1 {
		t.Fatalf("third attempt: %+v, %v, sent %d", res, err, len(mailer.sent))
	}
	res, _ = s.SendPendingMails(ctx, now.Add(time.Minute))
	if res.Sent != 0 || len(mailer.sent) != 1 {
		t.Fatalf("a sent mail went out again: %+v", res)
	}

	// A mail SES never takes ends failed after the limit, not pending for ever.
	mailer.fail = 1 << 20
	if err := s.Store.PutMails(ctx, []domain.MailDelivery{{ID: "m2", Email: domain.Email{To: "b@example.org"}, CreatedAt: now}}); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < domain.MaxMailAttempts+2; i++ {
		if _, err := s.SendPendingMails(ctx, now.Add(time.Minute)); err != nil {
			t.Fatal(err)
		}
	}
	pending, _ := s.Store.ListPendingMails(ctx, now.Add(time.Minute), 10)
	if len(pending) != 0 || mailer.fail != 1<<20-domain.MaxMailAttempts {
		t.Fatalf("pending %d, attempts %d; want none pending after %d attempts", len(pending), 1<<20-mailer.fail, domain.MaxMailAttempts)
	}
}
