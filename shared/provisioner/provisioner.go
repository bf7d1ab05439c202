// Package provisioner delivers SCIM changes to SPs. It is the consumer of
// the provisioning queue: each message names an outbox delivery, and the
// provisioner brings the SP in line with the service's current state for
// what the delivery is about. Every step is safe to repeat: a redelivered
// message finds the SP-side ids already stored, and a creation whose answer
// was lost is found at the SP by a lookup before creating again.
package provisioner

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"github.com/edu-invite/invite/shared/domain"
	"github.com/edu-invite/invite/shared/metrics"
	"github.com/edu-invite/invite/shared/scim"
)

// SCIMClient is what the provisioner needs of an SP.
type SCIMClient interface {
	CreateUser(ctx context.Context, u scim.User) (scim.User, error)
	ReplaceUser(ctx context.Context, id string, u scim.User) (scim.User, error)
	DeleteUser(ctx context.Context, id string) error
	FindUsers(ctx context.Context, attribute, value string) ([]scim.User, error)
	CreateGroup(ctx context.Context, g scim.Group) (scim.Group, error)
	ReplaceGroupStreaming(ctx context.Context, id string, g scim.Group, members scim.MemberSource) error
	DeleteGroup(ctx context.Context, id string) error
	FindGroups(ctx context.Context, attribute, value string) ([]scim.Group, error)
	GetUser(ctx context.Context, id string) (scim.User, error)
	GetGroup(ctx context.Context, id string) (scim.Group, error)
	ListUsers(ctx context.Context, startIndex, count int) (scim.Page[scim.User], error)
	ListGroups(ctx context.Context, startIndex, count int) (scim.Page[scim.Group], error)
	PatchGroupMembers(ctx context.Context, groupID string, op scim.PatchOp, members []scim.Member) error
}

// Clients hands out a client per SP.
type Clients interface {
	Client(ctx context.Context, spID string) (SCIMClient, domain.ServiceProvider, error)
}

// DeadLetters keeps deliveries that cannot succeed, with the reason.
type DeadLetters interface {
	Send(ctx context.Context, d domain.Delivery, reason string) error
}

// RawDeadLetters is what DeadLetters may also do: keep a message that is
// no delivery at all, as it came, in its message group.
type RawDeadLetters interface {
	SendRaw(ctx context.Context, body, group, id, reason string) error
}

// Metrics records the outcome of each delivery attempt per SP.
type Metrics interface {
	Delivery(sp string, outcome metrics.Outcome, latency time.Duration)
}

// Provisioner delivers outbox items to SPs.
type Provisioner struct {
	// Metrics and Backoff may be nil.
	Metrics Metrics
	Backoff Backoff
	// Retry bounds the backoff of transient failures (zero: the defaults).
	Retry       RetryPolicy
	Store       Store
	Clients     Clients
	DeadLetters DeadLetters
	Clock       domain.Clock
	Logger      *slog.Logger
	// MembersPerPage bounds the memberships read per query when a whole
	// group is PUT.
	MembersPerPage int
	// MaxReceives is the queue's maxReceiveCount. A delivery that fails
	// transiently on its last receive is dead-lettered here, with its
	// reason and status, instead of being moved by SQS's redrive without
	// a trace; 0 leaves it to the redrive.
	MaxReceives int
	// RoleSPs returns the SPs of a role's applications (the registry's
	// SPsOfRole); a reconcile run deletes the group of a role that no
	// longer uses the SP. Nil: every linked role still does.
	RoleSPs func(domain.Role) []domain.ServiceProvider

	caps    sync.Map // SP id -> *spCaps: what each SP supports for look-ups
	healing sync.Map // resource at SP -> *sync.Mutex, see healLock
}

func (p *Provisioner) now() time.Time {
	if p.Clock != nil {
		return p.Clock().UTC()
	}
	return time.Now().UTC()
}

func (p *Provisioner) log() *slog.Logger {
	if p.Logger != nil {
		return p.Logger
	}
	return slog.Default()
}

// defaultPageLimit is the page size of a listing when the SP names none.
const defaultPageLimit = 100
