package httpapi

import (
	"fmt"
	"log/slog"
	"net/http"

	"github.com/edu-invite/invite/shared/auth"
	"github.com/edu-invite/invite/shared/domain"
	"github.com/edu-invite/invite/shared/middleware"
)

// CorrelationHeader carries the id that ties a request to its logs, audit
// entries and SCIM deliveries.
const CorrelationHeader = middleware.CorrelationHeader

// middleware recovers from panics, sets the correlation id (both shared
// with the pages) and authenticates the caller. It never logs credentials
// or bodies.
func (a *API) middleware(next http.Handler) http.Handler {
	return middleware.Wrap(internalError, a.originGuard(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// Every answer may carry personal data (names, addresses, who
		// holds which role): no cache keeps it, no browser sniffs it.
		w.Header().Set("Cache-Control", "no-store")
		w.Header().Set("X-Content-Type-Options", "nosniff")
		if a.Authenticator != nil {
			p, err := a.Authenticator.Authenticate(r)
			if err != nil {
				// Only a failure meets the throttle: a valid credential is
				// served whatever failed before it from the same place.
				if a.Throttle != nil && domain.KindOf(err) == domain.KindUnauthenticated && !unthrottledPaths[r.URL.Path] &&
					a.Throttle.answerFailure(w, r, throttleKeys(r, a.Origin != nil)) {
					return
				}
				if _, bearer := oidcBearer(r); bearer && domain.KindOf(err) == domain.KindForbidden {
					// A valid token without the rights (a client's own
					// token where a person's is needed).
					w.Header().Set("WWW-Authenticate", bearerChallenge(r, `error="insufficient_scope"`))
				}
				writeError(w, r, err)
				return
			}
			if p != nil {
				r = r.WithContext(auth.WithPrincipal(r.Context(), p))
			}
		}
		next.ServeHTTP(w, r)
	})))
}

// originGuard refuses, before authentication, a request that reached API
// Gateway's execute-api address directly instead of through CloudFront and
// its WAF, when the origin secret is configured.
func (a *API) originGuard(next http.Handler) http.Handler {
	if a.Origin == nil {
		return next
	}
	return a.Origin.Guard(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "no-store")
		writeError(w, r, domain.Forbiddenf("requests must come through the service's public address"))
	})(next)
}

// internalError answers a panic: the log line names the operation and its
// cause, without e-mail addresses.
func internalError(w http.ResponseWriter, r *http.Request, cause any) {
	route, operation := operationOf(r)
	slog.ErrorContext(r.Context(), "panic serving request", "operation", operation, "route", route,
		"cause", redactPersonalData(fmt.Sprint(cause)))
	writeErrorStatus(w, r, http.StatusInternalServerError, "InternalServerError", "internal error")
}

// superUser guards the maintenance operations (spec 5.2: super user only).
func (a *API) superUser(next func(http.ResponseWriter, *http.Request, *auth.Principal)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		p, ok := requireCaller(w, r)
		if !ok {
			return
		}
		if !p.SuperUser {
			writeError(w, r, domain.Forbiddenf("super users only"))
			return
		}
		next(w, r, p)
	}
}

// callerOf is the caller or nil for anonymous requests.
func callerOf(r *http.Request) *auth.Principal { return auth.FromContext(r.Context()) }

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
