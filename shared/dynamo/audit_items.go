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
	SP            string `dynamodbav:"sp,omitempty"`
	DeliveryID    string `dynamodbav:"deliveryId,omitempty"`
	DeliveryKind  string `dynamodbav:"deliveryKind,omitempty"`
	Reason        string `dynamodbav:"reason,omitempty"`
	Subject       string `dynamodbav:"subject,omitempty"`
}

// auditRecord stores e; an entry without a time happened now.
func (s *Store) auditRecord(e domain.AuditEntry) auditRecord {
	if e.CreatedAt.IsZero() {
		e.CreatedAt = s.now()
	}
	sk := timeOrdered(e.CreatedAt, id(e.ID))
	if e.DeliveryID != "" {
		// Provisioning entries are told apart by their delivery and outcome,
		// not by a sequence id (the provisioner may not write sequences).
		sk = timeOrdered(e.CreatedAt, "D"+e.DeliveryID+"-"+string(e.Action))
	}
	return auditRecord{
		itemKey:       itemKey{PK: auditEntryPK(e), SK: sk},
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
		SP:            e.SP,
		DeliveryID:    e.DeliveryID,
		DeliveryKind:  string(e.DeliveryKind),
		Reason:        e.Reason,
		Subject:       e.Subject,
	}
}

// auditEntryPK is the role's audit partition, or for a provisioning entry
// about a user alone (user created, updated or deleted at an SP) the user's.
func auditEntryPK(e domain.AuditEntry) string {
	if e.RoleID == 0 && e.UserID != 0 {
		return "AUDIT#USER#" + id(e.UserID)
	}
	return auditPK(e.RoleID)
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
		SP:            rec.SP,
		DeliveryID:    rec.DeliveryID,
		DeliveryKind:  domain.DeliveryKind(rec.DeliveryKind),
		Reason:        rec.Reason,
		Subject:       rec.Subject,
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

func auditPK(roleID int64) string { return "AUDIT#ROLE#" + id(roleID) }

// auditPartition is the gsi1 partition holding every audit entry by time.
const auditPartition = "AUDIT"
