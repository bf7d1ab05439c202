package middleware

import (
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"log/slog"
	"net/http"
	"sync"
	"time"
)

// OriginHeader carries the secret CloudFront adds to every request it sends
// to API Gateway (an origin custom header; CloudFront overwrites a value a
// viewer sends). A request without it did not come through CloudFront and
// its WAF: it reached the API's execute-api address directly.
const OriginHeader = "X-Origin-Verify"

// SecretSource reads a secret by reference, cached or past the cache
// (shared/secrets.Resolver).
type SecretSource interface {
	Resolve(ctx context.Context, ref string) (string, error)
	ResolveFresh(ctx context.Context, ref string) (string, error)
}

// Defaults of OriginCheck.
const (
	// DefaultOriginReread: a mismatch reads the secret again past the cache
	// at most this often, so that a rotation reaches every function within
	// seconds while a flood of forged values costs one read per interval.
	DefaultOriginReread = 5 * time.Second
	// DefaultPreviousFor: how long a value read from PreviousRef is trusted
	// before a request presenting it reads it again, so that retiring it
	// takes effect within about a minute.
	DefaultPreviousFor = time.Minute
)

// OriginCheck refuses requests that do not carry the origin secret. It is
// on when it is configured (a secret reference), whatever the environment;
// without CloudFront in front (infra's edge=false) nothing configures it.
// The secret and the presented values are never logged.
//
// A rotation: the new value becomes the secret's current one and the old
// one its previous version (PreviousRef, Secrets Manager's AWSPREVIOUS);
// both pass while CloudFront's edges change over to the new value, and the
// old one stops passing once it is retired (infra/README.md).
type OriginCheck struct {
	Secrets SecretSource
	// Ref is the secret's current value; PreviousRef, optional, the value a
	// rotation replaced.
	Ref, PreviousRef string
	Reread           time.Duration // 0: DefaultOriginReread
	PreviousFor      time.Duration // 0: DefaultPreviousFor
	Now              func() time.Time
	Logger           *slog.Logger

	mu           sync.Mutex
	lastFresh    time.Time
	previous     [sha256.Size]byte
	previousRead time.Time // zero: no previous value known
}

// Guard lets through the requests that carry the secret and answers the
// others with refuse, before anything else runs. The header is removed
// from the request it passes on, so that nothing downstream can log it.
func (c *OriginCheck) Guard(refuse http.HandlerFunc) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			presented := r.Header.Get(OriginHeader)
			if !c.Verify(r.Context(), presented) {
				c.logger().WarnContext(r.Context(), "request without the origin secret refused: it did not come through CloudFront",
					"method", r.Method, "path", r.URL.Path, "headerPresent", presented != "")
				refuse(w, r)
				return
			}
			r.Header.Del(OriginHeader)
			next.ServeHTTP(w, r)
		})
	}
}

// Verify says whether presented is the origin secret: the cached current
// value, the previous value read within PreviousFor, or, on a mismatch and
// at most once per Reread, either of them read again from Secrets Manager.
// A current value that cannot be read refuses (the check fails closed).
func (c *OriginCheck) Verify(ctx context.Context, presented string) bool {
	if presented == "" {
		return false
	}
	got := sha256.Sum256([]byte(presented))
	if c.matchesCurrent(ctx, got, c.Secrets.Resolve) || c.matchesKnownPrevious(got) {
		return true
	}
	if !c.mayReread() {
		return false
	}
	return c.matchesCurrent(ctx, got, c.Secrets.ResolveFresh) || c.matchesFreshPrevious(ctx, got)
}

// matchesCurrent compares with the current value, read by read.
func (c *OriginCheck) matchesCurrent(ctx context.Context, got [sha256.Size]byte, read func(context.Context, string) (string, error)) bool {
	value, err := read(ctx, c.Ref)
	if err != nil {
		c.logger().ErrorContext(ctx, "origin secret unreadable; requests are refused until it can be read", "error", err)
		return false
	}
	return equalHash(got, value)
}

// matchesKnownPrevious compares with the previous value read lately.
func (c *OriginCheck) matchesKnownPrevious(got [sha256.Size]byte) bool {
	c.mu.Lock()
	previous, read := c.previous, c.previousRead
	c.mu.Unlock()
	return !read.IsZero() && c.now().Sub(read) < orDuration(c.PreviousFor, DefaultPreviousFor) &&
		subtle.ConstantTimeCompare(got[:], previous[:]) == 1
}

// matchesFreshPrevious reads the previous value again; none (no rotation
// yet, or it was retired) forgets the one known.
func (c *OriginCheck) matchesFreshPrevious(ctx context.Context, got [sha256.Size]byte) bool {
	if c.PreviousRef == "" {
		return false
	}
	value, err := c.Secrets.ResolveFresh(ctx, c.PreviousRef)
	c.mu.Lock()
	defer c.mu.Unlock()
	if err != nil || value == "" {
		c.previousRead = time.Time{}
		return false
	}
	c.previous, c.previousRead = sha256.Sum256([]byte(value)), c.now()
	return subtle.ConstantTimeCompare(got[:], c.previous[:]) == 1
}

// equalHash compares in constant time: hashes of equal length, so that not
// even the secret's length leaks.
func equalHash(got [sha256.Size]byte, value string) bool {
	sum := sha256.Sum256([]byte(value))
	return value != "" && subtle.ConstantTimeCompare(got[:], sum[:]) == 1
}

// mayReread takes the one fresh read allowed per Reread interval.
func (c *OriginCheck) mayReread() bool {
	now := c.now()
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.lastFresh.IsZero() && now.Sub(c.lastFresh) < orDuration(c.Reread, DefaultOriginReread) {
		return false
	}
	c.lastFresh = now
	return true
}

func (c *OriginCheck) now() time.Time {
	if c.Now != nil {
		return c.Now()
	}
	return time.Now()
}

func (c *OriginCheck) logger() *slog.Logger {
	if c.Logger != nil {
		return c.Logger
	}
	return slog.Default()
}

func orDuration(d, def time.Duration) time.Duration {
	if d > 0 {
		return d
	}
	return def
}
