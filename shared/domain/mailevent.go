package domain

import "context"

// MailEventKind is what the mail provider reported after it took a mail.
type MailEventKind string

const (
	MailEventBounce    MailEventKind = "bounce"
	MailEventComplaint MailEventKind = "complaint"
)

// MailEvent is a delivery outcome that arrives after sending: a bounce
// (permanent: the address does not take mail; transient: the provider gave
// up for now) or a complaint. Reason says why without personal data.
type MailEvent struct {
	Kind      MailEventKind
	Ref       string
	Permanent bool
	Reason    string
}

// MailStore reads mails of the outbox and records what happened to them
// after they were sent.
type MailStore interface {
	// GetMail reads one outbox mail. KindNotFound when there is no such mail.
	GetMail(ctx context.Context, id string) (MailDelivery, error)
	// RecordMailOutcome stores m if the stored mail is still in status from
	// (so a repeated event changes nothing); it reports whether it did. No
	// domain error: a mail no longer in from answers false.
	RecordMailOutcome(ctx context.Context, m MailDelivery, from MailStatus) (bool, error)
	// ListMails returns mails in one status, oldest first, at most limit. No
	// domain error (none: empty).
	ListMails(ctx context.Context, status MailStatus, limit int) ([]MailDelivery, error)
}
