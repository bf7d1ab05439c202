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
}
