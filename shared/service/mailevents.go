package service

import (
	"context"

	"github.com/edu-invite/invite/shared/auth"
	"github.com/edu-invite/invite/shared/domain"
)

// MailEventResult says what an event changed: the mail's status before and
// after, or Ignored when the event was a repeat or about an unknown mail.
type MailEventResult struct {
	Mail    string            `json:"mail,omitempty"`
	From    domain.MailStatus `json:"from,omitempty"`
	To      domain.MailStatus `json:"to,omitempty"`
	Ignored string            `json:"ignored,omitempty"`
}

// HandleMailEvent records a bounce or complaint on the outbox mail it is
// about. A permanent bounce marks the mail bounced (never sent again); a
// transient bounce (SES gave up for now) makes it pending again, so the
// outbox sweep retries it until MaxMailAttempts; a complaint is recorded.
// Events may arrive twice or late: the change is conditional on the mail
// still being sent, so a repeat changes nothing.
func (s *Service) HandleMailEvent(ctx context.Context, ev domain.MailEvent) (MailEventResult, error) {
	if ev.Ref == "" {
		return MailEventResult{Ignored: "event carries no mail reference (not sent by this service)"}, nil
	}
	m, err := s.Store.GetMail(ctx, ev.Ref)
	if domain.IsNotFound(err) {
		return MailEventResult{Mail: ev.Ref, Ignored: "mail no longer in the outbox"}, nil
	}
	if err != nil {
		return MailEventResult{}, err
	}
	res := MailEventResult{Mail: m.ID, From: m.Status}
	if m.Status != domain.MailSent {
		res.Ignored = "mail is " + string(m.Status) + ", not sent"
		return res, nil
	}
	switch {
	case ev.Kind == domain.MailEventComplaint:
		m.Status = domain.MailComplained
	case ev.Kind == domain.MailEventBounce && ev.Permanent:
		m.Status = domain.MailBounced
	case ev.Kind == domain.MailEventBounce && m.Attempts < domain.MaxMailAttempts:
		m.Status = domain.MailPending
	case ev.Kind == domain.MailEventBounce:
		m.Status = domain.MailFailed
	default:
		res.Ignored = "event kind " + string(ev.Kind) + " is not handled"
		return res, nil
	}
	m.LastError = string(ev.Kind) + ": " + ev.Reason
	m.UpdatedAt = s.now()
	changed, err := s.Store.RecordMailOutcome(ctx, m, domain.MailSent)
	if err != nil {
		return MailEventResult{}, err
	}
	if !changed {
		res.Ignored = "mail changed meanwhile"
		return res, nil
	}
	res.To = m.Status
	s.log().WarnContext(ctx, "e-mail not delivered", "mail", m.ID, "status", m.Status, "reason", domain.RedactEmails(m.LastError))
	return res, nil
}

// UndeliveredMailStatuses are the statuses an operator looks at.
var UndeliveredMailStatuses = []domain.MailStatus{domain.MailFailed, domain.MailBounced, domain.MailComplained}

// UndeliveredMails lists mails that did not reach their recipient, for
// super users.
func (s *Service) UndeliveredMails(ctx context.Context, p *auth.Principal, status domain.MailStatus, limit int) ([]domain.MailDelivery, error) {
	if err := requireSuperUser(p); err != nil {
		return nil, err
	}
	known := false
	for _, st := range UndeliveredMailStatuses {
		known = known || st == status
	}
	if !known {
		return nil, domain.Invalidf("status must be failed, bounced or complained")
	}
	return s.Store.ListMails(ctx, status, limit)
}

// RetryFailedMails makes failed mails pending again with a fresh count of
// attempts, after an operator fixed the cause (SES sandbox, quota, sender
// identity); the next sweep sends them. Bounced and complained mails are
// not retried: their addresses do not want them.
func (s *Service) RetryFailedMails(ctx context.Context, p *auth.Principal, ids []string) (int, error) {
	if err := requireSuperUser(p); err != nil {
		return 0, err
	}
	if len(ids) == 0 {
		return 0, domain.Invalidf("ids must name at least one mail")
	}
	if len(ids) > 100 {
		return 0, domain.Invalidf("at most 100 ids per request")
	}
	mails := make([]domain.MailDelivery, 0, len(ids))
	for _, id := range ids {
		m, err := s.Store.GetMail(ctx, id)
		if err != nil {
			return 0, err
		}
		if m.Status != domain.MailFailed {
			return 0, domain.Conflictf("mail %s is %s; only failed mails are retried", id, m.Status)
		}
		mails = append(mails, m)
	}
	retried := 0
	for _, m := range mails {
		m.Status, m.Attempts, m.UpdatedAt = domain.MailPending, 0, s.now()
		changed, err := s.Store.RecordMailOutcome(ctx, m, domain.MailFailed)
		if err != nil {
			return retried, err
		}
		if changed {
			retried++
		}
	}
	return retried, nil
}
