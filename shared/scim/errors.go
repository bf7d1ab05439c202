package scim

import (
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// maxDetailLen bounds the SP's error detail kept in an *Error: errors end up
// in logs and in stored delivery records, and an SP may echo large inputs.
const maxDetailLen = 256

// Error is every failure of an SCIM operation that reached the point of
// sending a request. Status is 0 when no response arrived (connection
// refused, timeout, cancelled); Err then holds the cause.
type Error struct {
	Op         string        // method and path, e.g. "POST /Users" or "DELETE /Users/42"
	Status     int           // HTTP status; 0 for transport errors
	SCIMType   string        // scimType of a SCIM error body (RFC 7644 3.12)
	Detail     string        // detail of a SCIM error body, truncated
	RetryAfter time.Duration // from a Retry-After header; 0 if none
	Err        error         // transport or decoding cause, if any
}

func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString("scim ")
	b.WriteString(e.Op)
	b.WriteString(": ")
	if e.Status == 0 {
		if e.Err != nil {
			b.WriteString(e.Err.Error())
		} else {
			b.WriteString("no response")
		}
		return b.String()
	}
	fmt.Fprintf(&b, "%d %s", e.Status, http.StatusText(e.Status))
	if e.SCIMType != "" {
		fmt.Fprintf(&b, " (%s)", e.SCIMType)
	}
	if e.Detail != "" {
		b.WriteString(": ")
		b.WriteString(e.Detail)
	}
	if e.Err != nil {
		b.WriteString(": ")
		b.WriteString(e.Err.Error())
	}
	return b.String()
}

func (e *Error) Unwrap() error { return e.Err }

// Retryable reports whether sending the same request later may succeed:
// true when no response arrived and for statuses that signal a temporary
// condition at the SP; false for other statuses (the request itself is
// wrong, or the SP refuses it).
func (e *Error) Retryable() bool {
	switch e.Status {
	case 0,
		http.StatusRequestTimeout,      // 408
		http.StatusTooEarly,            // 425
		http.StatusTooManyRequests,     // 429
		http.StatusInternalServerError, // 500
		http.StatusBadGateway,          // 502
		http.StatusServiceUnavailable,  // 503
		http.StatusGatewayTimeout:      // 504
		return true
	}
	return false
}

// IsNotFound reports whether err is an SP's 404. A 404 on DELETE means the
// resource is already gone.
func IsNotFound(err error) bool { return hasStatus(err, http.StatusNotFound) }

// IsConflict reports whether err is an SP's 409, e.g. scimType "uniqueness"
// when a userName already exists.
func IsConflict(err error) bool { return hasStatus(err, http.StatusConflict) }

// IsRetryable reports whether err is an *Error that may succeed when retried.
func IsRetryable(err error) bool {
	var e *Error
	return errors.As(err, &e) && e.Retryable()
}

// RetryAfter returns how long the SP asked the client to wait, or 0.
func RetryAfter(err error) time.Duration {
	var e *Error
	if errors.As(err, &e) {
		return e.RetryAfter
	}
	return 0
}

func hasStatus(err error, status int) bool {
	var e *Error
	return errors.As(err, &e) && e.Status == status
}

// parseRetryAfter reads a Retry-After header (RFC 9110 10.2.3): either
// delay-seconds or an HTTP date. Unparsable or past values give 0.
func parseRetryAfter(h string, now time.Time) time.Duration {
	h = strings.TrimSpace(h)
	if h == "" {
		return 0
	}
	if secs, err := strconv.ParseInt(h, 10, 64); err == nil {
		if secs <= 0 {
			return 0
		}
		const maxSecs = int64(1<<63-1) / int64(time.Second)
		return time.Duration(min(secs, maxSecs)) * time.Second
	}
	if at, err := http.ParseTime(h); err == nil {
		if d := at.Sub(now); d > 0 {
			return d
		}
	}
	return 0
}

// cleanDetail makes an SP-provided message safe to keep: valid UTF-8, on
// one line, and bounded.
func cleanDetail(s string) string {
	s = strings.ToValidUTF8(s, "?")
	s = strings.Join(strings.Fields(s), " ")
	if len(s) <= maxDetailLen {
		return s
	}
	cut := maxDetailLen
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}
