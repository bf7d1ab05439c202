// Package middleware holds the request wrapping that the JSON API
// (shared/httpapi) and the pages (shared/web) share, so that both tie a
// request to its logs the same way and neither can crash the process: the
// correlation id and the recovery from panics. It knows nothing of either
// caller's error format: each passes how it answers a panic.
package middleware

import (
	"crypto/rand"
	"encoding/hex"
	"net/http"
	"regexp"

	"github.com/edu-invite/invite/shared/domain"
)

// CorrelationHeader carries the id that ties a request to its logs, audit
// entries and SCIM deliveries.
const CorrelationHeader = "X-Correlation-Id"

var safeCorrelation = regexp.MustCompile(`^[A-Za-z0-9._:-]{1,64}$`)

// Correlate takes the caller's correlation id when it is a safe token, else
// makes one, echoes it in the response and puts it in the request context
// (where the logger and the audit trail find it).
func Correlate(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		id := r.Header.Get(CorrelationHeader)
		if !safeCorrelation.MatchString(id) {
			id = NewCorrelationID()
		}
		w.Header().Set(CorrelationHeader, id)
		next.ServeHTTP(w, r.WithContext(domain.WithCorrelationID(r.Context(), id)))
	})
}

// Answer writes the 500 of a recovered panic and logs its cause in the
// caller's terms (the API names the operation, the pages the path); never
// the query, which may carry an invitation secret.
type Answer func(w http.ResponseWriter, r *http.Request, cause any)

// Recover answers a panic with answer.
func Recover(answer Answer) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			defer func() {
				if v := recover(); v != nil {
					if v == http.ErrAbortHandler {
						panic(v)
					}
					answer(w, r, v)
				}
			}()
			next.ServeHTTP(w, r)
		})
	}
}

// Wrap is what both the API and the pages put around their handlers:
// recovery outermost, so that even a panic carries the correlation id.
func Wrap(answerPanic Answer, next http.Handler) http.Handler {
	return Correlate(Recover(answerPanic)(next))
}

// NewCorrelationID returns a fresh random correlation id.
func NewCorrelationID() string {
	var b [12]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}
