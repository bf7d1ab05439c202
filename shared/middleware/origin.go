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
	// DefaultOriginGrace: a value replaced by a rotation stays accepted this
	// long, while CloudFront's edge locations take up the new one.
	DefaultOriginGrace = 15 * time.Minute
)

// OriginCheck refuses requests that do not carry the origin secret. It is
// on when it is configured (a secret reference), whatever the environment;
// without CloudFront in front (infra's edge=false) nothing configures it.
// The secret and the presented values are never logged.
type OriginCheck struct {
	Secrets SecretSource
	Ref     string
	Reread  time.Duration // 0: DefaultOriginReread
	Grace   time.Duration // 0: DefaultOriginGrace
	Now     func() time.Time
	Logger  *slog.Logger

	mu            sync.Mutex
	lastFresh     time.Time
	current       [sha256.Size]byte
	previous      [sha256.Size]byte
	previousUntil time.Time
	known         bool
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

// Verify says whether presented is the origin secret: the cached value, the
// value a rotation replaced (for Grace), or, on a mismatch and at most once
// per Reread, the value read again from Secrets Manager. A secret that
// cannot be read refuses (the check fails closed).
func (c *OriginCheck) Verify(ctx context.Context, presented string) bool {
	if presented == "" {
		return false
	}
	got := sha256.Sum256([]byte(presented))
	value, err := c.Secrets.Resolve(ctx, c.Ref)
	if err == nil && c.matches(got, value) {
		return true
	}
	if err != nil {
		c.logger().ErrorContext(ctx, "origin secret unreadable; requests are refused until it can be read", "error", err)
	}
	if !c.mayReread() {
		return false
	}
	value, err = c.Secrets.ResolveFresh(ctx, c.Ref)
	if err != nil {
		c.logger().ErrorContext(ctx, "origin secret unreadable; requests are refused until it can be read", "error", err)
		return false
	}
	return c.matches(got, value)
}

// matches records value as the current secret (keeping the one it
// replaces for Grace) and compares in constant time: hashes of equal
// length, so that not even the secret's length leaks.
func (c *OriginCheck) matches(got [sha256.Size]byte, value string) bool {
	sum := sha256.Sum256([]byte(value))
	now := c.now()
	c.mu.Lock()
	if !c.known || sum != c.current {
		if c.known {
			c.previous, c.previousUntil = c.current, now.Add(orDuration(c.Grace, DefaultOriginGrace))
		}
		c.current, c.known = sum, true
	}
	previous, previousValid := c.previous, now.Before(c.previousUntil)
	c.mu.Unlock()
	if value != "" && subtle.ConstantTimeCompare(got[:], sum[:]) == 1 {
		return true
	}
	return previousValid && subtle.ConstantTimeCompare(got[:], previous[:]) == 1
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
