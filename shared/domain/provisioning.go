package domain

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"sync"
	"time"
)

// DeliveryKind is one SCIM change that must reach one SP (spec 6).
type DeliveryKind string

const (
	DeliverGroupCreate  DeliveryKind = "group.create"
	DeliverGroupDelete  DeliveryKind = "group.delete"
	DeliverUserCreate   DeliveryKind = "user.create"
	DeliverUserUpdate   DeliveryKind = "user.update"
	DeliverUserDelete   DeliveryKind = "user.delete"
	DeliverMemberAdd    DeliveryKind = "member.add"
	DeliverMemberRemove DeliveryKind = "member.remove"
)

// DeliveryStatus is where an outbox item stands.
type DeliveryStatus string

const (
	DeliveryPending   DeliveryStatus = "pending"   // written with the domain change, not yet on the queue
	DeliverySent      DeliveryStatus = "sent"      // on the queue
	DeliveryDelivered DeliveryStatus = "delivered" // in effect at the SP
	DeliveryFailed    DeliveryStatus = "failed"    // dead-lettered; needs a replay
	DeliveryDiscarded DeliveryStatus = "discarded" // failed, and an operator chose not to replay it
)

// Delivery is an outbox item: written in the same transaction as the domain
// change that causes it, then put on the queue. It names what to change, not
// how: the provisioner reads the current state when it delivers, so a late or
// repeated delivery still leaves the SP as the service says.
type Delivery struct {
	ID            string
	SPID          string
	Kind          DeliveryKind
	UserID        int64
	RoleID        int64
	CorrelationID string
	CreatedAt     time.Time
	Status        DeliveryStatus
	Attempts      int
	LastError     string
	UpdatedAt     time.Time
	// Replays counts operator replays; it makes a replay's queue
	// deduplication id new, so SQS does not drop it as a repeat.
	Replays int
	// OrderKey is the queue's message group: deliveries with one key are
	// applied in order, different keys in parallel (see OrderKeyOf).
	OrderKey string
	// ExternalID is the resource's externalId at the SP on deletions (the
	// role's URN; the user's ExternalIDAt). The resource is gone from the
	// service by the time the deletion is delivered, and one whose creation
	// answer was lost has no stored SP id: the deletion then finds it at
	// the SP by this.
	ExternalID string
	// UserEmail and RoleName label the delivery in the audit trail when its
	// user or role is deleted before the delivery runs (deletions). They are
	// kept with the outbox item in the table and never put on the queue
	// message, which carries no personal data.
	UserEmail string
	RoleName  string
	// UserSub is the sub of a user who leaves the service, on its user
	// deletions and group removals; kept with the outbox item like
	// UserEmail, never on the queue message. The same person may be back
	// as a new user (another id, another line) whose creation adopted the
	// very SP account this delivery is about to delete or remove: the
	// provisioner reads the sub to find that user and leaves its account be.
	UserSub string
}

// MessageGroup is the FIFO message group of the delivery.
func (d Delivery) MessageGroup() string {
	if d.OrderKey != "" {
		return d.OrderKey
	}
	return d.SPID
}

// OrderKeyOf decides what must stay in order: changes to one resource at one
// SP. A user's creation, updates, memberships and deletion share the user's
// key, so a membership never overtakes the user's creation and the user's
// deletion comes after its group removals; a group's creation and deletion
// share the group's key. A membership in the user's line waits for its
// group to be created in the group's. Only an SP that takes
// memberships as a PUT of the whole group needs its membership changes in
// the group's line, because each PUT replaces the members. Different
// resources and different SPs never wait on each other.
func OrderKeyOf(sp ServiceProvider, kind DeliveryKind, userID, roleID int64) string {
	switch kind {
	case DeliverGroupCreate, DeliverGroupDelete, DeliverGroupUpdate:
		return ResourceLine(ResourceGroup, sp.ID, roleID)
	case DeliverMemberAdd, DeliverMemberRemove:
		if sp.MembershipMode == MembershipPut {
			return ResourceLine(ResourceGroup, sp.ID, roleID)
		}
	}
	return ResourceLine(ResourceUser, sp.ID, userID)
}

// ResourceLine is the order key (FIFO message group) of the changes to one
// user or group at one SP: its line, the one line that creates it there.
func ResourceLine(kind ResourceKind, spID string, localID int64) string {
	if kind == ResourceGroup {
		return fmt.Sprintf("%s/group/%d", spID, localID)
	}
	return fmt.Sprintf("%s/user/%d", spID, localID)
}

// DeduplicationID is the queue's deduplication id of this send.
func (d Delivery) DeduplicationID() string {
	if d.Replays == 0 {
		return d.ID
	}
	return fmt.Sprintf("%s-r%d", d.ID, d.Replays)
}

// NewDeliveryID returns an id that sorts by creation time, and within one
// process by creation order even inside one millisecond (the deliveries of
// one transaction are listed, swept and replayed in the order written), and
// is unique without coordination; it is also the SQS deduplication id.
func NewDeliveryID(now time.Time) string {
	var b [4]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic(err) // crypto/rand never fails on supported platforms
	}
	ms := now.UnixMilli()
	idClock.Lock()
	if ms <= idClock.lastMs {
		ms = idClock.lastMs // never go back: a clock step keeps the order
		idClock.seq++
	} else {
		idClock.lastMs, idClock.seq = ms, 0
	}
	seq := idClock.seq
	idClock.Unlock()
	return fmt.Sprintf("%013d-%06d-%s", ms, seq, hex.EncodeToString(b[:]))
}

var idClock struct {
	sync.Mutex
	lastMs int64
	seq    int
}

// ResourceKind is what an SP link points at.
type ResourceKind string

const (
	ResourceUser  ResourceKind = "USER"
	ResourceGroup ResourceKind = "GROUP"
)

// ProvisioningStatus of a user or group at one SP.
type ProvisioningStatus string

const (
	StatusPending       ProvisioningStatus = "pending"
	StatusProvisioned   ProvisioningStatus = "provisioned"
	StatusFailed        ProvisioningStatus = "failed"
	StatusDeprovisioned ProvisioningStatus = "deprovisioned"
)

// SPLink is the service's knowledge of one user or group at one SP: the
// SP-side id once it exists there, and how provisioning stands.
type SPLink struct {
	Kind          ResourceKind
	LocalID       int64
	SPID          string
	RemoteID      string
	Status        ProvisioningStatus
	ProvisionedAt *time.Time
	UpdatedAt     time.Time
	Attempts      int
	LastError     string
	// MembersAddedAt is, on a group's link, when a delivery other than a
	// member's own (the group's update, a repair) last began to add members
	// at a PATCH SP. A member's own add that may have come after such an add
	// checks the group afterwards, as an SP whose add is not idempotent
	// would hold the member twice.
	MembersAddedAt *time.Time
}
