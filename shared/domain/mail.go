package domain

import "time"

// MailStatus is where an outgoing e-mail stands.
type MailStatus string

const (
	MailPending MailStatus = "pending"
	MailSent    MailStatus = "sent"
	MailFailed  MailStatus = "failed"
	// MailBounced: SES took the mail but the recipient's server refused it
	// for good (a permanent bounce); it is not sent again.
	MailBounced MailStatus = "bounced"
	// MailComplained: the recipient marked the mail as spam.
	MailComplained MailStatus = "complained"
)

// MailDelivery is an e-mail in the mail outbox: written in the same
// transaction as the change it reports (a reminder counted, a membership
// ended), sent afterwards, and retried by the sweep until SES takes it, so
// that a mail is neither lost nor sent twice for one change.
type MailDelivery struct {
	ID        string
	Email     Email
	Status    MailStatus
	Attempts  int
	LastError string
	CreatedAt time.Time
	UpdatedAt time.Time
}

// MaxMailAttempts bounds retries of one e-mail; after that it stays failed
// for an operator to look at rather than being retried for ever.
const MaxMailAttempts = 10
