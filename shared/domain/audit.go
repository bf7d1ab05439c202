package domain

import "time"

// AuditAction says what happened to a user-role.
type AuditAction string

const (
	AuditAdd    AuditAction = "ADD"
	AuditUpdate AuditAction = "UPDATE"
	AuditDelete AuditAction = "DELETE"
	// Provisioning outcomes, one entry per delivery, at one SP: a user,
	// membership or group created or updated there; a user or membership
	// removed there; a group deleted there; a delivery dead-lettered.
	AuditProvisioned        AuditAction = "PROVISIONED"
	AuditDeprovisioned      AuditAction = "DEPROVISIONED"
	AuditGroupDeleted       AuditAction = "GROUP_DELETED"
	AuditProvisioningFailed AuditAction = "PROVISIONING_FAILED"
	// Changes of roles: created, renamed, moved to another organization,
	// other settings changed, deleted.
	AuditRoleCreated AuditAction = "ROLE_CREATED"
	AuditRoleRenamed AuditAction = "ROLE_RENAMED"
	AuditRoleMoved   AuditAction = "ROLE_MOVED"
	AuditRoleUpdated AuditAction = "ROLE_UPDATED"
	AuditRoleDeleted AuditAction = "ROLE_DELETED"
	// Invitations: sent, sent again, withdrawn (one entry per role).
	AuditInvitationCreated AuditAction = "INVITATION_CREATED"
	AuditInvitationResent  AuditAction = "INVITATION_RESENT"
	AuditInvitationDeleted AuditAction = "INVITATION_DELETED"
	// The registry: applications and SCIM connections created, changed,
	// deleted, or the whole registry imported.
	AuditApplicationCreated AuditAction = "APPLICATION_CREATED"
	AuditApplicationUpdated AuditAction = "APPLICATION_UPDATED"
	AuditApplicationDeleted AuditAction = "APPLICATION_DELETED"
	AuditConnectionCreated  AuditAction = "CONNECTION_CREATED"
	AuditConnectionUpdated  AuditAction = "CONNECTION_UPDATED"
	AuditConnectionDeleted  AuditAction = "CONNECTION_DELETED"
	AuditRegistryImported   AuditAction = "REGISTRY_IMPORTED"
	// Organizations named by super users.
	AuditOrganizationCreated AuditAction = "ORGANIZATION_CREATED"
	AuditOrganizationRenamed AuditAction = "ORGANIZATION_RENAMED"
)

// AuditActions lists every action, for validating filters; the console
// offers each as a filter and translates each (a test holds both to it).
var AuditActions = []AuditAction{AuditAdd, AuditUpdate, AuditDelete, AuditProvisioned, AuditDeprovisioned,
	AuditGroupDeleted, AuditProvisioningFailed,
	AuditRoleCreated, AuditRoleRenamed, AuditRoleMoved, AuditRoleUpdated, AuditRoleDeleted,
	AuditInvitationCreated, AuditInvitationResent, AuditInvitationDeleted,
	AuditApplicationCreated, AuditApplicationUpdated, AuditApplicationDeleted,
	AuditConnectionCreated, AuditConnectionUpdated, AuditConnectionDeleted, AuditRegistryImported,
	AuditOrganizationCreated, AuditOrganizationRenamed}

// ProvisioningOutcome is the audit action of a delivery's outcome.
func ProvisioningOutcome(kind DeliveryKind, failed bool) AuditAction {
	switch {
	case failed:
		return AuditProvisioningFailed
	case kind == DeliverGroupDelete:
		return AuditGroupDeleted
	case kind == DeliverUserDelete || kind == DeliverMemberRemove:
		return AuditDeprovisioned
	}
	return AuditProvisioned
}

// AuditFilter narrows an audit search: the entries of a role (RoleID),
// of a person (UserID, or Email compared without case), with one of the
// Actions, created in [From, To) (zero times: unbounded).
type AuditFilter struct {
	RoleID   int64
	UserID   int64
	Email    string
	Actions  []AuditAction
	From, To time.Time
}

// AuditEntry records one change of a user-role (spec 2.10), or one
// provisioning outcome at an SP. ID is from the "audit" sequence for every
// entry; CreatedBy names the person or program that made the change, or
// "provisioner" for outcomes at SPs.
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
	// Reason says why a provisioning delivery failed (the SP's answer or
	// the error), on PROVISIONING_FAILED entries.
	Reason string
	// Subject names what a change of a role, invitation, registry item or
	// organization was about, in words kept at the time: a role's former
	// name, an invitation's id, an application's or connection's id and
	// changed fields, an organization's GUID and names.
	Subject string
}
