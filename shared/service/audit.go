package service

import (
	"context"

	"github.com/edu-invite/invite/shared/auth"
	"github.com/edu-invite/invite/shared/domain"
)

// The audit trail of memberships: every change of a user role writes one
// entry, in the same transaction as the change.

// emailOf is the user's e-mail for an audit entry; a user that cannot be
// read leaves it empty rather than failing the change being audited.
func (s *Service) emailOf(ctx context.Context, userID int64) string {
	u, err := s.Store.GetUser(ctx, userID)
	if err != nil {
		return ""
	}
	return u.Email
}

// auditEntry records action on the membership ur of role by the caller p
// (nil: a scheduled job).
func (s *Service) auditEntry(ctx context.Context, p *auth.Principal, ur domain.UserRole, role domain.Role, email string, action domain.AuditAction) domain.AuditEntry {
	by := "system" // the scheduled jobs act without a caller
	if p != nil {
		by = p.Name
	}
	return domain.AuditEntry{UserID: ur.UserID, RoleID: role.ID, UserEmail: email, RoleName: role.Name, EndDate: ur.EndDate,
		CreatedAt: s.now(), CreatedBy: by, Authority: ur.Authority, Action: action, CorrelationID: domain.CorrelationID(ctx)}
}

// assignAuditIDs numbers new audit entries from the table's "audit"
// sequence, just before the transaction that writes them.
func (s *Service) assignAuditIDs(ctx context.Context, entries []domain.AuditEntry) error {
	if len(entries) == 0 {
		return nil
	}
	first, err := s.Store.NextIDs(ctx, "audit", len(entries))
	if err != nil {
		return err
	}
	for i := range entries {
		entries[i].ID = first + int64(i)
	}
	return nil
}
