package dynamo

import (
	"context"

	"github.com/edu-invite/invite/shared/domain"
)

// AddAuditEntries implements domain.AuditStore: the entries in one
// transaction (of at most maxTransactionItems; more are written in turn).
// Their ids are fresh, so the writes need no condition.
func (s *Store) AddAuditEntries(ctx context.Context, entries []domain.AuditEntry) error {
	for len(entries) > 0 {
		n := min(len(entries), maxTransactionItems)
		t := s.newTxn()
		t.putAudit(entries[:n])
		if err := t.commit(ctx); err != nil {
			return err
		}
		entries = entries[n:]
	}
	return nil
}
