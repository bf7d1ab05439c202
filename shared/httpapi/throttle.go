package httpapi

import (
	"crypto/sha256"
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
// From SlowAfter failures on, each further attempt waits a little longer
// (up to MaxDelay) before it is answered; from RefuseAfter failures on, it
// is refused with 429 and Retry-After until the window has passed. It
// lives in memory, per instance (each Lambda instance counts for itself;
// the API Gateway throttle and the WAF rate rule of the CDK stack bound the
// sum). The zero value is not usable: use NewFailureThrottle.
type FailureThrottle struct {
	Window      time.Duration
	SlowAfter   int
	RefuseAfter int
	MaxDelay    time.Duration
	// Now and Sleep are the clock and the pause, replaceable in tests.
	Now   func() time.Time
	Sleep func(time.Duration)

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

// NewFailureThrottle returns the service's policy: slowed from 5 failures
// in 10 minutes, refused from 20.
func NewFailureThrottle() *FailureThrottle {
	return &FailureThrottle{Window: 10 * time.Minute, SlowAfter: 5, RefuseAfter: 20, MaxDelay: 2 * time.Second,
		Now: time.Now, Sleep: time.Sleep, failures: map[string]*failureCount{}}
}

// throttleKeys are the keys a request counts under: its credential (a
// digest, never the value) and its source address.
func throttleKeys(r *http.Request) []string {
	var keys []string
	cred := r.Header.Get(auth.APITokenHeader) + "\x00" + r.Header.Get("Authorization") + "\x00" + r.Header.Get(auth.CRMKeyHeader)
	if cred != "\x00\x00" {
		sum := sha256.Sum256([]byte(cred))
		keys = append(keys, "cred:"+string(sum[:16]))
	}
	if host := sourceAddress(r); host != "" {
		keys = append(keys, "src:"+host)
	}
	return keys
}

// viewerAddressHeader is the viewer's "ip:port" that CloudFront adds in front
// of API Gateway (infra's edge). Behind CloudFront the connection's address
// is an edge location shared by everyone near it, so counting failures by it
// would let one person's guessing lock out their neighbours.
const viewerAddressHeader = "CloudFront-Viewer-Address"

// viewerIPHeader is the viewer's IP address that infra's CloudFront
// function writes on every request (replacing a value the viewer sent):
// CloudFront-Viewer-Address reaches the origin only under origin request
// policies that also forward the viewer's Host, which API Gateway refuses.
const viewerIPHeader = "X-Viewer-Address"

// sourceAddress is the address a request's failures count under: the
// viewer's as CloudFront saw it when present, else the connection's. With
// the origin check on (CloudFront in front), only CloudFront reaches the
// functions, so the header is CloudFront's; without it, a caller may forge
// the header, which only spreads their own failures over more keys, and
// the credential key still counts them.
func sourceAddress(r *http.Request) string {
	if ip := net.ParseIP(strings.TrimSpace(r.Header.Get(viewerIPHeader))); ip != nil {
		return ip.String()
	}
	addr := r.RemoteAddr
	if v := r.Header.Get(viewerAddressHeader); v != "" {
		addr = v
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

// retryAfter reports how long a request must wait before it is answered
// (delay) or, when refused, after how many seconds it may retry.
func (t *FailureThrottle) check(keys []string) (delay time.Duration, refuseFor time.Duration) {
	t.mu.Lock()
	defer t.mu.Unlock()
	now := t.Now()
	worst := 0
	var first time.Time
	for _, k := range keys {
		c := t.failures[k]
		if c == nil || now.Sub(c.first) >= t.Window {
			continue
		}
		if c.n > worst {
			worst, first = c.n, c.first
		}
	}
	switch {
	case worst >= t.RefuseAfter:
		return 0, first.Add(t.Window).Sub(now)
	case worst >= t.SlowAfter:
		d := time.Duration(worst-t.SlowAfter+1) * 200 * time.Millisecond
		return min(d, t.MaxDelay), 0
	}
	return 0, 0
}

func (t *FailureThrottle) fail(keys []string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	now := t.Now()
	if len(t.failures) >= maxThrottleKeys {
		for k, c := range t.failures {
			if now.Sub(c.first) >= t.Window {
				delete(t.failures, k)
			}
		}
		if len(t.failures) >= maxThrottleKeys {
			clear(t.failures)
		}
	}
	for _, k := range keys {
		c := t.failures[k]
		if c == nil || now.Sub(c.first) >= t.Window {
			c = &failureCount{first: now}
			t.failures[k] = c
		}
		c.n++
	}
}

// succeed forgets the failures of a credential that worked (its source's
// stay counted: another credential may be being guessed from there).
func (t *FailureThrottle) succeed(keys []string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, k := range keys {
		if len(k) > 5 && k[:5] == "cred:" {
			delete(t.failures, k)
		}
	}
}

// before is called ahead of authentication; false means the request was
// answered (429).
func (t *FailureThrottle) before(w http.ResponseWriter, r *http.Request, keys []string) bool {
	delay, refuse := t.check(keys)
	if refuse > 0 {
		secs := int(refuse.Seconds() + 0.999)
		w.Header().Set("Retry-After", strconv.Itoa(secs))
		writeError(w, r, &statusError{status: http.StatusTooManyRequests, exception: "TooManyRequestsException",
			message: "too many failed authentication attempts; retry after " + strconv.Itoa(secs) + " seconds"})
		return false
	}
	if delay > 0 {
		t.Sleep(delay)
	}
	return true
}
