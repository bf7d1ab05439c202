package domain

import "time"

// AuditAction says what happened to a user-role.
type AuditAction string

const (
	AuditAdd    AuditAction = "ADD"
	AuditUpdate AuditAction = "UPDATE"
	AuditDelete AuditAction = "DELETE"
	// Provisioning outcomes, one entry per delivery, at one SP.
	AuditProvisioned        AuditAction = "PROVISIONED"
	AuditProvisioningFailed AuditAction = "PROVISIONING_FAILED"
)

// AuditEntry records one change of a user-role (spec 2.10).
type AuditEntry struct {
	ID            int64
	UserID        int64
	RoleID        int64
	UserEmail     string
	RoleName      string
	EndDate       *time.Time
	CreatedAt     time.Time
	CreatedBy     string
	Authority     Authority
	Action        AuditAction
	CorrelationID string
	// SP and DeliveryID are set on provisioning entries: which SP, and the
	// delivery (kind and ids) whose outcome the entry records.
	SP           string
	DeliveryID   string
	DeliveryKind DeliveryKind
}
