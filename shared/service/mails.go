package service

import (
	"context"
	"time"

	"github.com/edu-invite/invite/shared/domain"
)

// newMail wraps a rendered e-mail as a pending outbox item.
func (s *Service) newMail(e domain.Email) domain.MailDelivery {
	now := s.now()
	return domain.MailDelivery{ID: domain.NewDeliveryID(now), Email: e, Status: domain.MailPending, CreatedAt: now, UpdatedAt: now}
}

// MailResult counts what a flush of the mail outbox did.
type MailResult struct {
	Sent   int `json:"sent"`
	Failed int `json:"failed"`
}

// SendPendingMails sends what is in the mail outbox, oldest first (the
// sweep passes a bound a minute in the past, so that it never races the
// request that wrote a mail and sends it itself). A mail SES refuses stays
// pending with its attempts counted and is tried again by the next sweep,
// until MaxMailAttempts; then it is marked failed, never silently dropped.
func (s *Service) SendPendingMails(ctx context.Context, createdBefore time.Time) (MailResult, error) {
	if s.Mailer == nil {
		return MailResult{}, nil
	}
	pending, err := s.Store.ListPendingMails(ctx, createdBefore, 100)
	if err != nil {
		return MailResult{}, err
	}
	return s.sendMails(ctx, pending)
}

func (s *Service) sendMails(ctx context.Context, mails []domain.MailDelivery) (MailResult, error) {
	var res MailResult
	for _, m := range mails {
		m.Attempts++
		m.UpdatedAt = s.now()
		m.Email.Ref = m.ID
		if err := s.Mailer.Send(ctx, m.Email); err != nil {
			m.LastError = err.Error()
			if m.Attempts >= domain.MaxMailAttempts {
				m.Status = domain.MailFailed
			}
			res.Failed++
			s.log().WarnContext(ctx, "e-mail not sent", "mail", m.ID, "attempt", m.Attempts, "error", domain.RedactEmails(err.Error()))
		} else {
			m.Status, m.LastError = domain.MailSent, ""
			res.Sent++
		}
		if err := s.Store.UpdateMailStatus(ctx, m); err != nil {
			return res, err
		}
	}
	return res, nil
}

// flushTimeout bounds how long a request waits for SES: a slow SES must not
// make the API slow; what is not sent by then is sent by the sweep.
const flushTimeout = 3 * time.Second

// flushMails sends the mails this request just wrote, and only those; what
// fails is left to the sweep.
func (s *Service) flushMails(ctx context.Context, mails []domain.MailDelivery) {
	if s.Mailer == nil || len(mails) == 0 {
		return
	}
	ctx, cancel := context.WithTimeout(ctx, flushTimeout)
	defer cancel()
	if _, err := s.sendMails(ctx, mails); err != nil {
		s.log().WarnContext(ctx, "mails not all sent; the sweep retries", "error", domain.RedactEmails(err.Error()))
	}
}
