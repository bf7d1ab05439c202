package httpapi

import (
	"crypto/rand"
	"encoding/hex"
	"log/slog"
	"net/http"
	"regexp"

	"github.com/edu-invite/invite/shared/auth"
	"github.com/edu-invite/invite/shared/domain"
)

// CorrelationHeader carries the id that ties a request to its logs, audit
// entries and SCIM deliveries.
const CorrelationHeader = "X-Correlation-Id"

var safeCorrelation = regexp.MustCompile(`^[A-Za-z0-9._:-]{1,64}$`)

// middleware recovers from panics, sets the correlation id and
// authenticates the caller. It never logs credentials or bodies.
func (a *API) middleware(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		defer func() {
			if v := recover(); v != nil {
				slog.ErrorContext(r.Context(), "panic serving request", "path", r.URL.Path, "panic", v)
				writeErrorStatus(w, r, http.StatusInternalServerError, "InternalServerError", "internal error")
			}
		}()
		id := r.Header.Get(CorrelationHeader)
		if !safeCorrelation.MatchString(id) {
			id = newCorrelationID()
		}
		w.Header().Set(CorrelationHeader, id)
		// Every answer may carry personal data (names, addresses, who
		// holds which role): no cache keeps it, no browser sniffs it.
		w.Header().Set("Cache-Control", "no-store")
		w.Header().Set("X-Content-Type-Options", "nosniff")
		ctx := domain.WithCorrelationID(r.Context(), id)
		r = r.WithContext(ctx)
		if a.Authenticator != nil {
			var keys []string
			if a.Throttle != nil {
				keys = throttleKeys(r)
				if !a.Throttle.before(w, r, keys) {
					return
				}
			}
			p, err := a.Authenticator.Authenticate(r)
			if err != nil {
				if a.Throttle != nil && domain.KindOf(err) == domain.KindUnauthenticated {
					a.Throttle.fail(keys)
				}
				writeError(w, r, err)
				return
			}
			if a.Throttle != nil && p != nil {
				a.Throttle.succeed(keys)
			}
			if p != nil {
				r = r.WithContext(auth.WithPrincipal(ctx, p))
			}
		}
		next.ServeHTTP(w, r)
	})
}

func newCorrelationID() string {
	var b [12]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// requireCaller answers 401 for anonymous requests.
func requireCaller(w http.ResponseWriter, r *http.Request) (*auth.Principal, bool) {
	p := auth.FromContext(r.Context())
	if p == nil {
		writeError(w, r, domain.Unauthenticatedf("authentication required"))
		return nil, false
	}
	return p, true
}

// callerAndBody answers 401 for anonymous requests and 400 for a bad body,
// in that order: the body is not read for a caller who may not send it.
func callerAndBody[T any](w http.ResponseWriter, r *http.Request) (*auth.Principal, T, bool) {
	var req T
	p, ok := requireCaller(w, r)
	if !ok || !decode(w, r, &req) {
		return nil, req, false
	}
	return p, req, true
}

// callerAndID answers 401 for anonymous requests and 400 for a bad {id}.
func callerAndID(w http.ResponseWriter, r *http.Request) (*auth.Principal, int64, bool) {
	return callerAndPathID(w, r, "id")
}

// callerAndPathID answers 401 for anonymous requests and 400 for a bad
// {name}, in that order.
func callerAndPathID(w http.ResponseWriter, r *http.Request, name string) (*auth.Principal, int64, bool) {
	p, ok := requireCaller(w, r)
	if !ok {
		return nil, 0, false
	}
	id, err := pathID(r, name)
	if err != nil {
		writeError(w, r, err)
		return nil, 0, false
	}
	return p, id, true
}
