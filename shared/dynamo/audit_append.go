package dynamo

import (
	"context"

	"github.com/edu-invite/invite/shared/domain"
)

// auditNoRolePK holds the audit entries about neither a role nor a user
// (registry and organization changes), read with all others through gsi1.
const auditNoRolePK = "AUDIT#NOROLE"

// AddAuditEntries implements domain.AuditStore: the entries in one
// transaction (of at most maxTransactionItems; more are written in turn).
// Their ids are fresh, so the writes need no condition.
func (s *Store) AddAuditEntries(ctx context.Context, entries []domain.AuditEntry) error {
	for len(entries) > 0 {
		n := min(len(entries), maxTransactionItems)
		t := s.newTxn()
		for _, e := range entries[:n] {
			rec := s.auditRecord(e)
			if e.RoleID == 0 && e.UserID == 0 {
				rec.PK = auditNoRolePK
			}
			t.put(rec)
		}
		if err := t.commit(ctx); err != nil {
			return err
		}
		entries = entries[n:]
	}
	return nil
}
