package domain

import (
	"context"
	"errors"
	"time"
)

// ErrAPITokenIDTaken is returned when a new API token's id is in use: the
// caller reserves another id and tries again.
var ErrAPITokenIDTaken = errors.New("API token id taken")

// PendingAPIToken is a token value that was shown to its caller but not yet
// persisted: only its hash is kept, bound to the caller, for a short time.
// It replaces the reference service's session attribute (Lambdas have no
// session).
type PendingAPIToken struct {
	// CallerKey identifies the caller that generated the value.
	CallerKey   string
	HashedValue string
	ExpiresAt   time.Time
}

// MaintenanceStore serves API token administration, the audit search and
// the super-user maintenance operations.
type MaintenanceStore interface {
	// PutPendingAPIToken stores (or replaces) the caller's pending token.
	// KindInvalid without caller or hash.
	PutPendingAPIToken(ctx context.Context, p PendingAPIToken) error
	// GetPendingAPIToken reads the caller's pending token; KindNotFound when
	// there is none or it has expired.
	GetPendingAPIToken(ctx context.Context, callerKey string) (PendingAPIToken, error)
	// CreateAPITokenFromPending persists t and consumes the pending token
	// whose hash t carries, in one transaction: a pending value becomes at
	// most one token. KindConflict when the pending token was consumed or
	// replaced meanwhile. KindInvalid when t is not the pending token; and
	// those of CreateAPIToken.
	CreateAPITokenFromPending(ctx context.Context, p PendingAPIToken, t APIToken) error
	// ListAPITokens returns the tokens of an organization, or with "" every
	// token, by id. No domain error (none: empty).
	ListAPITokens(ctx context.Context, organizationGUID string) ([]APIToken, error)
	// GetAPIToken reads a token by id. KindNotFound when there is no such
	// token.
	GetAPIToken(ctx context.Context, id int64) (APIToken, error)
	// DeleteAPIToken deletes a token. KindConflict when the id names another
	// token.
	DeleteAPIToken(ctx context.Context, t APIToken) error
	// ListAPITokensExpiringBetween returns tokens whose expiresAt is in [from,
	// to), at most limit. KindInvalid for a range of more days than one call
	// reads.
	ListAPITokensExpiringBetween(ctx context.Context, from, to time.Time, limit int) ([]APIToken, error)

	// ListRecentAuditEntries returns at most limit audit entries created
	// before the time (zero: now), newest first: of one role, or with roleID 0
	// of all roles. No domain error (none: empty).
	ListRecentAuditEntries(ctx context.Context, roleID int64, before time.Time, limit int) ([]AuditEntry, error)

	// ListAllRoles returns every role, by name (maintenance operations only:
	// its cost grows with the number of roles). No domain error (none: empty).
	ListAllRoles(ctx context.Context) ([]Role, error)
}
