package httpapi

import (
	"context"
	"crypto/sha256"
	"log/slog"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/edu-invite/invite/shared/auth"
)

// FailureThrottle slows and then refuses guessing: repeated authentication
// failures of one credential, or from one source address, within Window.
// It only ever changes how a failed authentication is answered: a valid
// credential is always served, however many others failed from its
// address (universities reach the service through a few NAT addresses),
// so nobody can lock an institution out by failing in its name. From
// SlowAfter failures on a key, each further failure under it waits a
// little longer (up to MaxDelay) before its 401; from RefuseAfter on, it is
// answered 429 with Retry-After until the window has passed. With Shared
// the failures are counted in the table, so that every function instance
// sees the others' (windows of fixed length in Unix time); without it, or
// when the table fails, each instance counts for itself in memory (the API
// Gateway throttle and the WAF rate rule of the CDK stack bound the sum).
// The zero value is not usable: use NewFailureThrottle.
type FailureThrottle struct {
	Window      time.Duration
	SlowAfter   int
	RefuseAfter int
	MaxDelay    time.Duration
	// Now and Sleep are the clock and the pause, replaceable in tests.
	Now   func() time.Time
	Sleep func(time.Duration)
	// Shared counts the failures of all instances (nil: this one's).
	Shared FailureCounts

	mu       sync.Mutex
	failures map[string]*failureCount
}

type failureCount struct {
	n     int
	first time.Time
}

// maxThrottleKeys bounds the memory of the throttle: when full, windows
// that have passed are dropped, and if that is not enough, everything.
const maxThrottleKeys = 100_000

// NewFailureThrottle returns the service's policy: failures slowed from 5
// in 10 minutes per key, refused from 20.
func NewFailureThrottle() *FailureThrottle {
	return &FailureThrottle{Window: 10 * time.Minute, SlowAfter: 5, RefuseAfter: 20, MaxDelay: 2 * time.Second,
		Now: time.Now, Sleep: time.Sleep, failures: map[string]*failureCount{}}
}

// unthrottledPaths answer whatever failed before: a load balancer's or an
// operator's health check must never be slowed or refused.
var unthrottledPaths = map[string]bool{"/health": true}

// throttleKeys are the keys a failed request counts under: what it
// presented (a digest, never the value) and its source address. A Basic
// caller counts under its user name, whatever password it tried, so that
// guessing one caller's password is slowed from every address; a token or
// key counts under itself.
func throttleKeys(r *http.Request, trustViewer bool) []string {
	var keys []string
	add := func(kind, value string) {
		if value != "" {
			sum := sha256.Sum256([]byte(value))
			keys = append(keys, kind+string(sum[:16]))
		}
	}
	add("token:", r.Header.Get(auth.APITokenHeader))
	add("crm:", r.Header.Get(auth.CRMKeyHeader))
	if user, _, ok := r.BasicAuth(); ok {
		add("basic:", user)
	} else {
		add("authz:", r.Header.Get("Authorization"))
	}
	if host := sourceAddress(r, trustViewer); host != "" {
		keys = append(keys, "src:"+host)
	}
	return keys
}

// viewerAddressHeader is the viewer's "ip:port" that CloudFront adds in front
// of API Gateway (infra's edge). Behind CloudFront the connection's address
// is an edge location shared by everyone near it, so counting failures by it
// would slow one person's neighbours for their guessing.
const viewerAddressHeader = "CloudFront-Viewer-Address"

// viewerIPHeader is the viewer's IP address that infra's CloudFront
// function writes on every request (replacing a value the viewer sent):
// CloudFront-Viewer-Address reaches the origin only under origin request
// policies that also forward the viewer's Host, which API Gateway refuses.
const viewerIPHeader = "X-Viewer-Address"

// sourceAddress is the address a request's failures count under. The
// viewer headers are CloudFront's only when the origin check proved the
// request came through CloudFront (trustViewer); without it anyone may
// write them, to spread their guesses over invented addresses or to
// charge their failures to someone else's, so the connection's address
// counts.
func sourceAddress(r *http.Request, trustViewer bool) string {
	addr := r.RemoteAddr
	if trustViewer {
		if ip := net.ParseIP(strings.TrimSpace(r.Header.Get(viewerIPHeader))); ip != nil {
			return ip.String()
		}
		if v := r.Header.Get(viewerAddressHeader); v != "" {
			addr = v
		}
	}
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		// CloudFront writes IPv6 viewers without brackets: "2001:db8::1:443".
		if i := strings.LastIndexByte(addr, ':'); i > 0 && strings.Count(addr, ":") > 1 {
			return addr[:i]
		}
		return addr
	}
	return host
}

// FailureCounts keeps failed authentications where every instance of
// the service sees them (*dynamo.Store).
type FailureCounts interface {
	// AddAuthFailure counts one failure under key in the window that
	// starts at windowStart and returns the window's count so far; the
	// count may be forgotten after expires.
	AddAuthFailure(ctx context.Context, key string, windowStart, expires time.Time) (int, error)
}

// fail counts a failure under each key and says how to answer it: after a
// delay, or (refuseFor > 0) with 429 until refuseFor has passed.
func (t *FailureThrottle) fail(ctx context.Context, keys []string) (delay, refuseFor time.Duration) {
	if t.Shared == nil {
		return t.failHere(keys)
	}
	delay, refuseFor, err := t.failShared(ctx, keys)
	if err != nil {
		slog.Default().WarnContext(ctx, "failed authentications counted in this instance only", "error", err)
		return t.failHere(keys)
	}
	return delay, refuseFor
}

// failShared counts in the shared window the failure falls in.
func (t *FailureThrottle) failShared(ctx context.Context, keys []string) (delay, refuseFor time.Duration, err error) {
	now := t.Now()
	start := now.Truncate(t.Window)
	worst := 0
	for _, k := range keys {
		n, err := t.Shared.AddAuthFailure(ctx, k, start, start.Add(t.Window))
		if err != nil {
			return 0, 0, err
		}
		worst = max(worst, n)
	}
	delay, refuseFor = t.answer(worst, start, now)
	return delay, refuseFor, nil
}

// answer is how the worst count of a failure's keys is answered.
func (t *FailureThrottle) answer(worst int, windowStart, now time.Time) (delay, refuseFor time.Duration) {
	switch {
	case worst > t.RefuseAfter:
		return 0, windowStart.Add(t.Window).Sub(now)
	case worst > t.SlowAfter:
		return min(time.Duration(worst-t.SlowAfter)*200*time.Millisecond, t.MaxDelay), 0
	}
	return 0, 0
}

// failHere counts in this instance's memory.
func (t *FailureThrottle) failHere(keys []string) (delay, refuseFor time.Duration) {
	t.mu.Lock()
	defer t.mu.Unlock()
	now := t.Now()
	if len(t.failures)+len(keys) > maxThrottleKeys {
		for k, c := range t.failures {
			if now.Sub(c.first) >= t.Window {
				delete(t.failures, k)
			}
		}
		if len(t.failures)+len(keys) > maxThrottleKeys {
			clear(t.failures)
		}
	}
	worst := 0
	var first time.Time
	for _, k := range keys {
		c := t.failures[k]
		if c == nil || now.Sub(c.first) >= t.Window {
			c = &failureCount{first: now}
			t.failures[k] = c
		}
		c.n++
		if c.n > worst {
			worst, first = c.n, c.first
		}
	}
	return t.answer(worst, first, now)
}

// answerFailure counts a failed authentication and answers it when it is
// refused (429, true); else it waits the failure's delay and leaves the
// answer (401) to the caller (false).
func (t *FailureThrottle) answerFailure(w http.ResponseWriter, r *http.Request, keys []string) bool {
	delay, refuse := t.fail(r.Context(), keys)
	if refuse > 0 {
		secs := int(refuse.Seconds() + 0.999)
		w.Header().Set("Retry-After", strconv.Itoa(secs))
		writeError(w, r, &statusError{status: http.StatusTooManyRequests, exception: "TooManyRequestsException",
			message: "too many failed authentication attempts; retry after " + strconv.Itoa(secs) + " seconds"})
		return true
	}
	if delay > 0 {
		t.Sleep(delay)
	}
	return false
}
