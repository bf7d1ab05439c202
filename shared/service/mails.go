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
// request that wrote a mail and sends it itself), page after page (a large
// invitation leaves hundreds), until none is left, SES refuses one (the
// next sweep goes on) or the invocation's time is nearly used up. A mail
// SES refuses stays pending with its attempts counted and is tried again
// by the next sweep, until MaxMailAttempts; then it is marked failed,
// never silently dropped.
func (s *Service) SendPendingMails(ctx context.Context, createdBefore time.Time) (MailResult, error) {
	var total MailResult
	if s.Mailer == nil {
		return total, nil
	}
	for range maxSweepPages {
		pending, err := s.Store.ListPendingMails(ctx, createdBefore, mailPage)
		if err != nil {
			return total, err
		}
		res, err := s.sendMails(ctx, pending)
		total.Sent, total.Failed = total.Sent+res.Sent, total.Failed+res.Failed
		if err != nil || len(pending) < mailPage || res.Failed > 0 {
			return total, err
		}
		if deadline, ok := ctx.Deadline(); ok && time.Until(deadline) < sweepReserve {
			break
		}
	}
	return total, nil
}

// A sweep reads mailPage mails at a time, at most maxSweepPages times, and
// starts no page with less than sweepReserve of its invocation left (a
// page at SES's usual rate takes seconds).
const (
	mailPage      = 100
	maxSweepPages = 50
	sweepReserve  = 20 * time.Second
)

// sendMails sends mails one by one until ctx ends; the rest stay pending.
// A mail's outcome is recorded past ctx's end: a mail that went out must be
// marked sent, or the sweep would send it again.
func (s *Service) sendMails(ctx context.Context, mails []domain.MailDelivery) (MailResult, error) {
	var res MailResult
	for _, m := range mails {
		if ctx.Err() != nil {
			break
		}
		m.Attempts++
		m.UpdatedAt = s.now()
		m.Email.Ref = m.ID
		if err := s.Mailer.Send(ctx, m.Email); err != nil {
			if ctx.Err() != nil {
				break // cut short by the time given, not refused: no attempt to count
			}
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
		record, cancel := context.WithTimeout(context.WithoutCancel(ctx), recordTimeout)
		err := s.Store.UpdateMailStatus(record, m)
		cancel()
		if err != nil {
			return res, err
		}
	}
	return res, nil
}

// recordTimeout bounds the write of a mail's outcome.
const recordTimeout = 5 * time.Second

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
