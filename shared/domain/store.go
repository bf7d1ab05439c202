package domain

import (
	"context"
	"time"
)

// Store is the service's persistence port. Every method is one GetItem,
// Query or transaction on the single table (see shared/dynamo/DATAMODEL.md).
// Not-found answers are domain errors of KindNotFound; a failed uniqueness
// check is KindConflict; a failed version check is ErrVersionConflict.
type Store interface {
	RoleStore
	UserStore
	InvitationStore
	ProvisioningStore
	TokenStore
	LifecycleStore
	MailStore
	MemberStore
	MaintenanceStore
	CRMStore
	RoleListingStore
	UserSearchStore
	// NextIDs reserves n consecutive ids of a sequence ("role", "user", ...)
	// and returns the first.
	NextIDs(ctx context.Context, sequence string, n int) (int64, error)
}

// RoleStore keeps roles, their unique names and their application links.
type RoleStore interface {
	// CreateRole writes a new role (Version 0 -> 1) with its unique name,
	// its application links and the deliveries it causes, in one transaction.
	CreateRole(ctx context.Context, r Role, deliveries []Delivery) error
	// UpdateRole replaces a role whose stored version is r.Version.
	UpdateRole(ctx context.Context, r Role, deliveries []Delivery) error
	// DeleteRole removes the role, its unique name and application links and
	// writes the deliveries, in one transaction; memberships of the role are
	// removed by the caller afterwards.
	DeleteRole(ctx context.Context, r Role, deliveries []Delivery) error
	GetRole(ctx context.Context, id int64) (Role, error)
	GetRoles(ctx context.Context, ids []int64) ([]Role, error)
	ListRolesByManageID(ctx context.Context, manageID string) ([]Role, error)
	ListRolesByOrganization(ctx context.Context, organizationGUID string) ([]Role, error)
}

// UserStore keeps users and their memberships.
type UserStore interface {
	GetUser(ctx context.Context, id int64) (User, error)
	GetUserBySub(ctx context.Context, sub string) (User, error)
	// UpdateUser replaces a user whose stored version is u.Version and writes
	// the deliveries, in one transaction.
	UpdateUser(ctx context.Context, u User, deliveries []Delivery) error
	GetUserRole(ctx context.Context, userID, roleID int64) (UserRole, error)
	GetUserRoleByID(ctx context.Context, id int64) (UserRole, error)
	// UpdateUserRole replaces a membership whose stored version is
	// ur.Version, with its audit entries and deliveries, in one transaction.
	UpdateUserRole(ctx context.Context, ur UserRole, audit []AuditEntry, deliveries []Delivery) error
	ListUserRolesOfUser(ctx context.Context, userID int64) ([]UserRole, error)
	// ListUserRolesOfRole pages through the memberships of a role; an empty
	// next token means the last page.
	ListUserRolesOfRole(ctx context.Context, roleID int64, pageToken string, limit int) (page []UserRole, next string, err error)
	// DeleteUserRoles removes memberships with their audit entries and
	// deliveries, in one transaction.
	DeleteUserRoles(ctx context.Context, urs []UserRole, audit []AuditEntry, deliveries []Delivery) error
}

// InvitationStore keeps invitations and applies acceptances.
type InvitationStore interface {
	CreateInvitations(ctx context.Context, invs []Invitation) error
	GetInvitation(ctx context.Context, id int64) (Invitation, error)
	GetInvitationByHashDigest(ctx context.Context, digest string) (Invitation, error)
	ListOpenInvitationsOfRole(ctx context.Context, roleID int64) ([]Invitation, error)
	// SaveAcceptance applies an acceptance atomically.
	SaveAcceptance(ctx context.Context, a Acceptance) error
}

// Acceptance is everything that changes when an invitation is accepted.
type Acceptance struct {
	// Invitation with Status accepted and AcceptedAt set; Version is the one
	// read. A zero Invitation (ID 0) writes none: memberships provisioned
	// directly by an administrator (U8) are stored the same way.
	Invitation Invitation
	// User is created (NewUser, unique by sub) or updated (version-checked).
	User    User
	NewUser bool
	// NewUserRoles must not exist yet; UpdatedUserRoles are version-checked.
	NewUserRoles     []UserRole
	UpdatedUserRoles []UserRole
	Audit            []AuditEntry
	Deliveries       []Delivery
}

// ProvisioningStore keeps the outbox and the SP-side ids.
type ProvisioningStore interface {
	GetDelivery(ctx context.Context, id string) (Delivery, error)
	// UpdateDeliveryStatus records how a delivery stands.
	UpdateDeliveryStatus(ctx context.Context, d Delivery) error
	// FinishDelivery records the final status of a delivery held whole (the
	// provisioner's, from its message) in one conditional write without a
	// read; false when the stored item is not the one to overwrite (a newer
	// replay, or gone): then UpdateDeliveryStatus decides.
	FinishDelivery(ctx context.Context, d Delivery) (bool, error)
	// ListUnsentDeliveries returns pending deliveries created before the time,
	// oldest first, for the outbox sweep.
	ListUnsentDeliveries(ctx context.Context, createdBefore time.Time, limit int) ([]Delivery, error)
	// ListFailedDeliveries returns dead-lettered deliveries of an SP (of
	// every SP when spID is empty), oldest first.
	ListFailedDeliveries(ctx context.Context, spID string, limit int) ([]Delivery, error)

	GetLink(ctx context.Context, kind ResourceKind, localID int64, spID string) (SPLink, error)
	PutLink(ctx context.Context, l SPLink) error
	DeleteLink(ctx context.Context, kind ResourceKind, localID int64, spID string) error
	// ListLinksOfSP lists the links of one kind to one SP (a reconcile run).
	ListLinksOfSP(ctx context.Context, spID string, kind ResourceKind) ([]SPLink, error)
	// GetLinksAt reads the links of many users or groups to one SP at
	// once, by local id; ids without a link are absent.
	GetLinksAt(ctx context.Context, kind ResourceKind, localIDs []int64, spID string) (map[int64]SPLink, error)
	ListLinks(ctx context.Context, kind ResourceKind, localID int64) ([]SPLink, error)
	// PutProvisioningAudit records provisioning outcomes (entries with a
	// DeliveryID, in the partition of the delivery's role, or of the user).
	PutProvisioningAudit(ctx context.Context, entries []AuditEntry) error
}

// TokenStore keeps hashed API tokens.
type TokenStore interface {
	CreateAPIToken(ctx context.Context, t APIToken) error
	GetAPITokenByHash(ctx context.Context, hashedValue string) (APIToken, error)
}
