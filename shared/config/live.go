package config

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"github.com/edu-invite/invite/shared/domain"
)

// Source reads the registry's items from where they are kept (the table).
type Source interface {
	// LoadRegistry reads every application and connection, in one query of
	// the registry's partition (paged), never a scan.
	LoadRegistry(ctx context.Context) (Document, error)
	// LoadConnection reads one connection item; found is false when it is
	// absent.
	LoadConnection(ctx context.Context, id string) (ProvisioningDoc, bool, error)
}

// DefaultRefresh is how old a cached registry may get before a read
// refreshes it: a change made in one function reaches every other within
// this time (the issue asks for a minute).
const DefaultRefresh = 30 * time.Second

// DefaultConnectionRefresh is how old a connection answered by Target may
// be: one GetItem per connection and 5 s at most, so that a credential
// rotated through the API is used by deliveries in other functions within
// seconds, not half a minute of 401s.
const DefaultConnectionRefresh = 5 * time.Second

// maxCachedConnections bounds the per-connection cache of Target.
const maxCachedConnections = 2048

// Live is the table-backed registry. Applications and SPs of roles come
// from a snapshot of the whole registry, reloaded when older than Refresh;
// Target, the provisioner's one call per delivery, reads at most the one
// connection item when its cached copy is older than Refresh, so a
// delivery never loads the whole registry. A failed read keeps the last
// snapshot (logged) and is retried after a few seconds.
type Live struct {
	Source  Source
	Refresh time.Duration
	// ConnectionRefresh bounds the age of a connection that Target
	// answers (default DefaultConnectionRefresh): a rotated credential
	// reaches the provisioner in another function within it.
	ConnectionRefresh time.Duration
	Logger            *slog.Logger
	Now               func() time.Time

	mu         sync.Mutex
	snap       *Registry
	loadedAt   time.Time
	failedAt   time.Time
	refreshing bool
	// gen counts Invalidate calls; snapGen is the gen at which the
	// current snapshot's load started. A snapshot older than the last
	// Invalidate is never answered while a newer one can be read.
	gen, snapGen int

	connMu sync.Mutex
	conns  map[string]cachedConn
}

type cachedConn struct {
	target  Target
	found   bool
	fetched time.Time
}

// NewLive returns a registry over src with the default refresh.
func NewLive(src Source, logger *slog.Logger) *Live {
	return &Live{Source: src, Refresh: DefaultRefresh, Logger: logger}
}

func (l *Live) now() time.Time {
	if l.Now != nil {
		return l.Now()
	}
	return time.Now()
}

func (l *Live) refresh() time.Duration {
	if l.Refresh > 0 {
		return l.Refresh
	}
	return DefaultRefresh
}

func (l *Live) connectionRefresh() time.Duration {
	if l.ConnectionRefresh > 0 {
		return l.ConnectionRefresh
	}
	return DefaultConnectionRefresh
}

func (l *Live) log() *slog.Logger {
	if l.Logger != nil {
		return l.Logger
	}
	return slog.Default()
}

// retryAfterFailure is how long a failed load is not retried.
const retryAfterFailure = 5 * time.Second

// Load reads the registry now; the wiring calls it at start-up so that a
// function that cannot read its registry fails visibly.
func (l *Live) Load(ctx context.Context) error {
	doc, err := l.Source.LoadRegistry(ctx)
	if err != nil {
		return err
	}
	reg, problems := Build(doc)
	for _, p := range problems {
		l.log().Warn("registry item skipped", "problem", p)
	}
	l.mu.Lock()
	l.snap, l.snapGen, l.loadedAt = reg, l.gen, l.now()
	l.mu.Unlock()
	return nil
}

// Invalidate drops the cached registry, so that the next read sees a change
// this process has just made.
func (l *Live) Invalidate() {
	l.mu.Lock()
	l.gen++
	l.loadedAt = time.Time{}
	l.failedAt = time.Time{}
	l.mu.Unlock()
	l.connMu.Lock()
	l.conns = nil
	l.connMu.Unlock()
}

// snapshot returns a registry no older than Refresh when the table can be
// read, else the last one (or an empty one). One caller reloads at a time;
// while it does, the others answer from the previous snapshot rather than
// wait for the table.
func (l *Live) snapshot() *Registry {
	l.mu.Lock()
	now := l.now()
	current := l.snap != nil && l.snapGen == l.gen
	fresh := current && now.Sub(l.loadedAt) < l.refresh()
	backingOff := current && !l.failedAt.IsZero() && now.Sub(l.failedAt) < retryAfterFailure
	if fresh || backingOff || (l.refreshing && current) {
		snap := l.snap
		l.mu.Unlock()
		return snap
	}
	l.refreshing = true
	startGen := l.gen
	l.mu.Unlock()

	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	doc, err := l.Source.LoadRegistry(ctx)

	l.mu.Lock()
	defer l.mu.Unlock()
	l.refreshing = false
	if err != nil {
		l.failedAt = now
		l.log().Error("registry read failed; answering from the last snapshot", "error", err)
		if l.snap == nil {
			return &Registry{byManageID: map[string]domain.Application{}, targets: map[string]Target{}}
		}
		return l.snap
	}
	reg, problems := Build(doc)
	for _, p := range problems {
		l.log().Warn("registry item skipped", "problem", p)
	}
	if startGen >= l.snapGen {
		l.snap, l.snapGen, l.loadedAt, l.failedAt = reg, startGen, now, time.Time{}
	}
	return reg
}

// Document returns the cached registry's items as written.
func (l *Live) Document() Document { return l.snapshot().Document() }

// Applications lists every application, ordered by manage id.
func (l *Live) Applications() []domain.Application { return l.snapshot().Applications() }

// Application finds an application by manage id. One unknown here may
// have just been added through another function: a miss reloads a
// snapshot older than MissRefresh once.
func (l *Live) Application(manageID string) (domain.Application, bool) {
	if app, ok := l.snapshot().Application(manageID); ok || !l.expireForMiss() {
		return app, ok
	}
	return l.snapshot().Application(manageID)
}

// ServiceProvider finds a SCIM target's settings by id; a miss reloads as
// Application's does.
func (l *Live) ServiceProvider(id string) (domain.ServiceProvider, bool) {
	if sp, ok := l.snapshot().ServiceProvider(id); ok || !l.expireForMiss() {
		return sp, ok
	}
	return l.snapshot().ServiceProvider(id)
}

// MissRefresh is how old a snapshot must be before a miss (an id it does
// not hold) reloads it: an application added in the console is known to
// the API at once rather than after Refresh, while ids that exist nowhere
// cost at most one registry read per MissRefresh.
const MissRefresh = 2 * time.Second

// expireForMiss marks a current snapshot older than MissRefresh stale so
// that the next read reloads it; false when it is younger (or a reload is
// under way or backing off after a failure), and the miss stands.
func (l *Live) expireForMiss() bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	now := l.now()
	if l.snap == nil || l.snapGen != l.gen || l.refreshing || now.Sub(l.loadedAt) < MissRefresh ||
		(!l.failedAt.IsZero() && now.Sub(l.failedAt) < retryAfterFailure) {
		return false
	}
	l.loadedAt = time.Time{}
	return true
}

// TargetIDs lists the SCIM targets.
func (l *Live) TargetIDs() []string { return l.snapshot().TargetIDs() }

// SPsOfRole returns the SCIM targets of a role's applications.
func (l *Live) SPsOfRole(role domain.Role) []domain.ServiceProvider {
	return l.snapshot().SPsOfRole(role)
}

// ProvisioningMetadata describes a SCIM target.
func (l *Live) ProvisioningMetadata(id string) (map[string]any, bool) {
	return l.snapshot().ProvisioningMetadata(id)
}

// Target finds a connection, for a delivery: from a snapshot loaded
// within ConnectionRefresh when there is one, else from its own cached
// item of that age, else by reading that one item.
func (l *Live) Target(id string) (Target, bool) {
	now := l.now()
	l.mu.Lock()
	snap, fresh := l.snap, l.snap != nil && l.snapGen == l.gen && now.Sub(l.loadedAt) < l.connectionRefresh()
	l.mu.Unlock()
	if fresh {
		return snap.Target(id)
	}
	l.connMu.Lock()
	c, ok := l.conns[id]
	l.connMu.Unlock()
	if ok && now.Sub(c.fetched) < l.connectionRefresh() {
		return c.target, c.found
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	doc, found, err := l.Source.LoadConnection(ctx, id)
	if err != nil {
		l.log().Error("connection read failed; answering from the cache", "sp", id, "error", err)
		if ok {
			return c.target, c.found
		}
		if snap != nil {
			return snap.Target(id)
		}
		return Target{}, false
	}
	var t Target
	if found {
		var problems []string
		t, problems = ValidateConnection(doc)
		if len(problems) > 0 {
			l.log().Warn("connection item is invalid", "sp", id, "problems", problems)
			found = false
		}
	}
	l.connMu.Lock()
	if l.conns == nil || len(l.conns) >= maxCachedConnections {
		l.conns = map[string]cachedConn{}
	}
	l.conns[id] = cachedConn{target: t, found: found, fetched: now}
	l.connMu.Unlock()
	return t, found
}
