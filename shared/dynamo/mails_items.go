package dynamo

import (
	"time"

	"github.com/edu-invite/invite/shared/domain"
)

const entityMail = "Mail"

// mailRetention keeps a sent e-mail for a while (an operator can see what
// went out), then TTL removes it: it holds personal data.
const mailRetention = 14 * 24 * time.Hour

// mailRecord is an e-mail in the mail outbox; gsi1 lists mails by status
// in creation order, for the sweep.
type mailRecord struct {
	itemKey
	indexKeys
	Entity    string `dynamodbav:"entity"`
	ID        string `dynamodbav:"id"`
	To        string `dynamodbav:"to"`
	Subject   string `dynamodbav:"subject"`
	HTML      string `dynamodbav:"html,omitempty"`
	Text      string `dynamodbav:"text,omitempty"`
	Status    string `dynamodbav:"status"`
	Attempts  int    `dynamodbav:"attempts,omitempty"`
	LastError string `dynamodbav:"lastError,omitempty"`
	CreatedAt string `dynamodbav:"createdAt"`
	UpdatedAt string `dynamodbav:"updatedAt,omitempty"`
}

func (s *Store) mailRecord(m domain.MailDelivery) mailRecord {
	if m.Status == "" {
		m.Status = domain.MailPending
	}
	if m.CreatedAt.IsZero() {
		m.CreatedAt = s.now()
	}
	rec := mailRecord{
		itemKey:   mailKey(m.ID),
		indexKeys: indexKeys{GSI1PK: mailboxPK(m.Status), GSI1SK: timeOrdered(m.CreatedAt, m.ID)},
		Entity:    entityMail, ID: m.ID, To: m.Email.To, Subject: m.Email.Subject, HTML: m.Email.HTML, Text: m.Email.Text,
		Status: string(m.Status), Attempts: m.Attempts, LastError: m.LastError,
		CreatedAt: formatTime(m.CreatedAt), UpdatedAt: formatTime(m.UpdatedAt),
	}
	if m.Status == domain.MailSent {
		rec.TTL = m.UpdatedAt.Add(mailRetention).Unix()
	}
	return rec
}

func (rec mailRecord) domain() (domain.MailDelivery, error) {
	var p timeParser
	m := domain.MailDelivery{ID: rec.ID, Email: domain.Email{To: rec.To, Subject: rec.Subject, HTML: rec.HTML, Text: rec.Text},
		Status: domain.MailStatus(rec.Status), Attempts: rec.Attempts, LastError: rec.LastError,
		CreatedAt: p.time(rec.CreatedAt), UpdatedAt: p.time(rec.UpdatedAt)}
	return m, p.err
}

func (t *txn) putMails(mails []domain.MailDelivery) {
	for _, m := range mails {
		if m.ID == "" {
			t.fail(domain.Invalidf("mail without id"))
			return
		}
		t.put(t.store.mailRecord(m))
	}
}

func mailKey(mailID string) itemKey { return itemKey{PK: "MAIL#" + mailID, SK: "MAIL"} }

func mailboxPK(status domain.MailStatus) string {
	return "MAILBOX#" + string(status)
}
