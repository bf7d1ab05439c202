package dynamo

import (
	"github.com/edu-invite/invite/shared/domain"
)

// auditRecord is an audit entry, in its role's partition by time; gsi1 holds
// all entries by time.
type auditRecord struct {
	itemKey
	indexKeys
	Entity        string `dynamodbav:"entity"`
	ID            int64  `dynamodbav:"id"`
	UserID        int64  `dynamodbav:"userId"`
	RoleID        int64  `dynamodbav:"roleId"`
	UserEmail     string `dynamodbav:"userEmail,omitempty"`
	RoleName      string `dynamodbav:"roleName,omitempty"`
	EndDate       string `dynamodbav:"endDate,omitempty"`
	CreatedAt     string `dynamodbav:"createdAt"`
	CreatedBy     string `dynamodbav:"createdBy,omitempty"`
	Authority     string `dynamodbav:"authority,omitempty"`
	Action        string `dynamodbav:"action"`
	CorrelationID string `dynamodbav:"correlationId,omitempty"`
}

// auditRecord stores e; an entry without a time happened now.
func (s *Store) auditRecord(e domain.AuditEntry) auditRecord {
	if e.CreatedAt.IsZero() {
		e.CreatedAt = s.now()
	}
	sk := timeOrdered(e.CreatedAt, id(e.ID))
	return auditRecord{
		itemKey:       itemKey{PK: auditPK(e.RoleID), SK: sk},
		indexKeys:     indexKeys{GSI1PK: auditPartition, GSI1SK: sk},
		Entity:        entityAudit,
		ID:            e.ID,
		UserID:        e.UserID,
		RoleID:        e.RoleID,
		UserEmail:     e.UserEmail,
		RoleName:      e.RoleName,
		EndDate:       formatTimePtr(e.EndDate),
		CreatedAt:     formatTime(e.CreatedAt),
		CreatedBy:     e.CreatedBy,
		Authority:     string(e.Authority),
		Action:        string(e.Action),
		CorrelationID: e.CorrelationID,
	}
}

func (rec auditRecord) domain() (domain.AuditEntry, error) {
	var p timeParser
	e := domain.AuditEntry{
		ID:            rec.ID,
		UserID:        rec.UserID,
		RoleID:        rec.RoleID,
		UserEmail:     rec.UserEmail,
		RoleName:      rec.RoleName,
		EndDate:       p.ptr(rec.EndDate),
		CreatedAt:     p.time(rec.CreatedAt),
		CreatedBy:     rec.CreatedBy,
		Authority:     domain.Authority(rec.Authority),
		Action:        domain.AuditAction(rec.Action),
		CorrelationID: rec.CorrelationID,
	}
	return e, p.err
}

// putAudit adds audit entries to a transaction. Their ids are fresh, so the
// writes need no condition.
func (t *txn) putAudit(entries []domain.AuditEntry) {
	for _, e := range entries {
		t.put(t.store.auditRecord(e))
	}
}
