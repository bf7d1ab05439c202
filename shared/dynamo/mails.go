package dynamo

import (
	"context"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"

	"github.com/edu-invite/invite/shared/domain"
)

// GetMail implements domain.MailStore.
func (s *Store) GetMail(ctx context.Context, id string) (domain.MailDelivery, error) {
	var rec mailRecord
	found, err := s.getItem(ctx, mailKey(id), &rec)
	if err != nil {
		return domain.MailDelivery{}, err
	}
	if !found {
		return domain.MailDelivery{}, domain.NotFoundf("mail %s not found", id)
	}
	return rec.domain()
}

// RecordMailOutcome implements domain.MailStore: a conditional Put on the
// stored status, so that a repeated or late event never undoes a newer state.
func (s *Store) RecordMailOutcome(ctx context.Context, m domain.MailDelivery, from domain.MailStatus) (bool, error) {
	if m.UpdatedAt.IsZero() {
		m.UpdatedAt = s.now()
	}
	held, err := s.putIf(ctx, s.mailRecord(m), expression.Name("status").Equal(expression.Value(string(from))))
	if err != nil {
		return false, fmt.Errorf("record outcome of mail %s: %w", m.ID, err)
	}
	return held, nil
}

// ListMails implements domain.MailStore: Query gsi1 MAILBOX#<status>.
func (s *Store) ListMails(ctx context.Context, status domain.MailStatus, limit int) ([]domain.MailDelivery, error) {
	if limit <= 0 {
		limit = 100
	}
	in, err := s.partitionQuery(indexGSI1, mailboxPK(status), nil)
	if err != nil {
		return nil, err
	}
	return queryUpTo(ctx, s, in, limit, decodeWith[mailRecord, domain.MailDelivery])
}
