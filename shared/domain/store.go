package domain

import (
	"context"
	"time"
)

// Store is the service's persistence port. Every method is one GetItem,
// Query or transaction on the single table (see shared/dynamo/DATAMODEL.md),
// but the super users' date repair (DateRepairStore), which reads the whole
// table.
// Each method's comment names the domain errors it returns: KindNotFound
// for an absent item, KindConflict for a taken id or name,
// ErrVersionConflict (of KindConflict) when a version check or a concurrent
// transaction loses, KindGone for an invitation no longer open. Every write
// may also answer KindInvalid for a record the table cannot hold (a missing
// key part, more than 400 KB). Any other error is the storage's own.
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
	DateRepairStore
	IndexRepairStore
	JobRunStore
	CRMStore
	RoleListingStore
	UserSearchStore
	OrganizationStore
	AuditStore
	// NextIDs reserves n consecutive ids of a sequence ("role", "user", ...)
	// and returns the first. KindInvalid for n < 1.
	NextIDs(ctx context.Context, sequence string, n int) (int64, error)
}

// RoleStore keeps roles, their unique names and their application links.
type RoleStore interface {
	// CreateRole writes a new role (Version 0 -> 1) with its unique name, its
	// application links and the deliveries it causes, in one transaction.
	// KindConflict when the id or the name is taken.
	CreateRole(ctx context.Context, r Role, deliveries []Delivery) error
	// UpdateRole replaces a role whose stored version is r.Version.
	// KindNotFound when the role is gone, ErrVersionConflict when it changed,
	// KindConflict when the new name is taken.
	UpdateRole(ctx context.Context, r Role, deliveries []Delivery) error
	// MoveRoleMembers carries the members of a role UpdateRole moved to
	// another organization (or whose earlier move is unfinished) into
	// their new organization's user listing, from cursor ("" is the
	// start), until it has done budget members (0: no bound) or stopAt
	// has passed (zero: none); next continues it, "" when every member is
	// done (or nothing was to do). No domain error.
	MoveRoleMembers(ctx context.Context, roleID int64, cursor string, budget int, stopAt time.Time) (next string, err error)
	// DeleteRole removes the role, its unique name and application links and
	// writes the deliveries, in one transaction, and keeps the role as a
	// deletion in progress (GetRoleDeletion); memberships of the role are
	// removed by the caller afterwards. KindNotFound when the role is gone,
	// ErrVersionConflict when it changed.
	DeleteRole(ctx context.Context, r Role, deliveries []Delivery) error
	// GetRoleDeletion reads a role that DeleteRole removed and whose
	// memberships are not all removed yet (FinishRoleDeletion not called).
	// KindNotFound when there is none.
	GetRoleDeletion(ctx context.Context, id int64) (Role, error)
	// FinishRoleDeletion forgets a deleted role once its memberships are
	// gone. No domain error.
	FinishRoleDeletion(ctx context.Context, id int64) error
	// GetRole reads one role. KindNotFound when there is no such role.
	GetRole(ctx context.Context, id int64) (Role, error)
	// GetRoles reads roles by id, in the order asked, each once. Roles that do
	// not exist are left out; no domain error.
	GetRoles(ctx context.Context, ids []int64) ([]Role, error)
	// ListRolesByManageID returns the roles of an application. No domain error
	// (none: empty).
	ListRolesByManageID(ctx context.Context, manageID string) ([]Role, error)
	// ListRolesByOrganization returns the roles of an organization. No domain
	// error (none: empty).
	ListRolesByOrganization(ctx context.Context, organizationGUID string) ([]Role, error)
}

// UserStore keeps users and their memberships.
type UserStore interface {
	// GetUser reads one user. KindNotFound when there is no such user.
	GetUser(ctx context.Context, id int64) (User, error)
	// GetUsers reads users by id, as GetUser does each; a missing user is
	// absent from the map.
	GetUsers(ctx context.Context, ids []int64) (map[int64]User, error)
	// GetUserBySub reads the user of a sub. KindNotFound when no user has the
	// sub.
	GetUserBySub(ctx context.Context, sub string) (User, error)
	// UpdateUser replaces a user whose stored version is u.Version and writes
	// the deliveries, in one transaction. KindNotFound when the user is gone,
	// ErrVersionConflict when it changed, KindInvalid when the sub would
	// change.
	UpdateUser(ctx context.Context, u User, deliveries []Delivery) error
	// GetUserRole reads the membership of a user in a role. KindNotFound when
	// the user does not hold the role.
	GetUserRole(ctx context.Context, userID, roleID int64) (UserRole, error)
	// GetUserRoleByID reads a membership by its id. KindNotFound when there is
	// no such membership.
	GetUserRoleByID(ctx context.Context, id int64) (UserRole, error)
	// UpdateUserRole replaces a membership whose stored version is ur.Version,
	// with its audit entries and deliveries, in one transaction. KindNotFound
	// when the membership is gone, ErrVersionConflict when it changed.
	UpdateUserRole(ctx context.Context, ur UserRole, audit []AuditEntry, deliveries []Delivery) error
	// ListUserRolesOfUser returns a user's memberships. No domain error (none:
	// empty).
	ListUserRolesOfUser(ctx context.Context, userID int64) ([]UserRole, error)
	// ListUserRolesOfRole pages through the memberships of a role; an empty
	// next token means the last page. KindInvalid for a page token it did not
	// issue.
	ListUserRolesOfRole(ctx context.Context, roleID int64, pageToken string, limit int) (page []UserRole, next string, err error)
	// DeleteUserRoles removes memberships with their audit entries and
	// deliveries, in one transaction. KindNotFound when a membership is gone,
	// ErrVersionConflict when one changed.
	DeleteUserRoles(ctx context.Context, urs []UserRole, audit []AuditEntry, deliveries []Delivery) error
}

// InvitationStore keeps invitations and applies acceptances.
type InvitationStore interface {
	// CreateInvitations writes new invitations (version 1) with their role
	// links. KindConflict when an id is taken.
	CreateInvitations(ctx context.Context, invs []Invitation) error
	// ReserveInvitations counts n invitations of an inviter (a stable id)
	// on a day (UTC, "2006-01-02") against limit, atomically. KindLimit,
	// counting nothing, when they would exceed it.
	ReserveInvitations(ctx context.Context, inviter, day string, n, limit int) error
	// GetInvitation reads one invitation. KindNotFound when there is no such
	// invitation.
	GetInvitation(ctx context.Context, id int64) (Invitation, error)
	// GetInvitationByHashDigest reads the invitation of a link's secret (its
	// digest). KindNotFound when no invitation has the digest.
	GetInvitationByHashDigest(ctx context.Context, digest string) (Invitation, error)
	// ListOpenInvitationsOfRole returns the open invitations to a role. No
	// domain error (none: empty).
	ListOpenInvitationsOfRole(ctx context.Context, roleID int64) ([]Invitation, error)
	// ListInvitationsOfRole returns the invitations of a role a list
	// shows, by id: every open one and the newest of its history (expired
	// until purged, accepted; a bounded number), so that a year of
	// accepted invitations costs a list nothing. No domain error (none:
	// empty).
	ListInvitationsOfRole(ctx context.Context, roleID int64) ([]Invitation, error)
	// ListInvitationsOfPerson returns the invitations sent to an e-mail
	// address (compared in lower case), newest first, from one bounded
	// read whatever the histories of their roles (the newest of them when
	// an address has very many). No domain error (none: empty).
	ListInvitationsOfPerson(ctx context.Context, email string) ([]Invitation, error)
	// SaveAcceptance applies an acceptance atomically. KindConflict when the
	// invitation was accepted meanwhile, or a new user (id or sub) or new
	// membership exists already; KindGone when the invitation is no longer
	// open; KindNotFound when the user or an updated membership is gone;
	// ErrVersionConflict when one of them changed; KindInvalid for a new user
	// without sub or a changed sub.
	SaveAcceptance(ctx context.Context, a Acceptance) error
	// AcceptanceWrites says how many writes SaveAcceptance would make of a
	// in its one transaction and how many one transaction may hold (more
	// fail it), writing nothing; it reads what SaveAcceptance reads (the
	// roles, for new memberships). KindNotFound when the user is gone.
	AcceptanceWrites(ctx context.Context, a Acceptance) (writes, limit int, err error)
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
	// GetDelivery reads one delivery. KindNotFound when the delivery is gone.
	GetDelivery(ctx context.Context, id string) (Delivery, error)
	// UpdateDeliveryStatus records how a delivery stands. KindNotFound when
	// the delivery is gone; marking sent one that is no longer pending changes
	// nothing and is no error.
	UpdateDeliveryStatus(ctx context.Context, d Delivery) error
	// MarkDeliveriesSent records that the queue accepted new deliveries,
	// as UpdateDeliveryStatus with DeliverySent does for each, with fewer
	// requests; the first error, after trying every delivery.
	MarkDeliveriesSent(ctx context.Context, ds []Delivery) error
	// FinishDelivery records the final status of a delivery held whole (the
	// provisioner's, from its message) in one conditional write without a
	// read; false when the stored item is not the one to overwrite (a newer
	// replay, or gone): then UpdateDeliveryStatus decides.
	FinishDelivery(ctx context.Context, d Delivery) (bool, error)
	// ListUnsentDeliveries returns pending deliveries created before the time,
	// oldest first, for the outbox sweep. No domain error (none: empty).
	ListUnsentDeliveries(ctx context.Context, createdBefore time.Time, limit int) ([]Delivery, error)
	// ListFailedDeliveries returns dead-lettered deliveries of an SP (of every
	// SP when spID is empty), oldest first. No domain error (none: empty).
	ListFailedDeliveries(ctx context.Context, spID string, limit int) ([]Delivery, error)

	// GetLink reads what the service knows of a user or group at one SP.
	// KindNotFound when the SP was never told of the user or group.
	GetLink(ctx context.Context, kind ResourceKind, localID int64, spID string) (SPLink, error)
	// PutLink records what an SP holds of a user or group. KindInvalid for a
	// kind other than user or group.
	PutLink(ctx context.Context, l SPLink) error
	// DeleteLink removes a link. Removing an absent link is no error.
	DeleteLink(ctx context.Context, kind ResourceKind, localID int64, spID string) error
	// ListLinksOfSP lists the links of one kind to one SP (a reconcile run).
	ListLinksOfSP(ctx context.Context, spID string, kind ResourceKind) ([]SPLink, error)
	// GetLinksAt reads the links of many users or groups to one SP at
	// once, by local id; ids without a link are absent.
	GetLinksAt(ctx context.Context, kind ResourceKind, localIDs []int64, spID string) (map[int64]SPLink, error)
	// ListLinks returns the links of a user or group at every SP. No domain
	// error (none: empty).
	ListLinks(ctx context.Context, kind ResourceKind, localID int64) ([]SPLink, error)
	// GetLinksOf reads the links of many users or groups to the given SPs
	// at once (a page of a role's members at its SPs); links that do not
	// exist are left out. No domain error.
	GetLinksOf(ctx context.Context, kind ResourceKind, localIDs []int64, spIDs []string) ([]SPLink, error)
	// GetDeliverySubjects reads the users, roles, memberships and links a
	// batch of deliveries is about, at once; absent items are left out. No
	// domain error.
	GetDeliverySubjects(ctx context.Context, q SubjectsQuery) (DeliverySubjects, error)
	// RecordOutcomes records at once what a batch of deliveries came to (see
	// Outcomes). KindInvalid for a replayed delivery, a status that is not
	// final, an audit entry without its delivery id, or a link of a kind
	// other than user or group.
	RecordOutcomes(ctx context.Context, o Outcomes) error
}

// TokenStore keeps hashed API tokens.
type TokenStore interface {
	// CreateAPIToken writes a new API token. KindConflict when a token has the
	// value; ErrAPITokenIDTaken (wrapped) when the id is in use.
	CreateAPIToken(ctx context.Context, t APIToken) error
	// GetAPITokenByHash reads the token of a hashed value. KindNotFound for an
	// unknown or expired token.
	GetAPITokenByHash(ctx context.Context, hashedValue string) (APIToken, error)
}
