package httpapi

import (
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"time"

	"github.com/edu-invite/invite/shared/auth"
	"github.com/edu-invite/invite/shared/domain"
)

// ErrorBody is the REST API's error body (spec 7).
type ErrorBody struct {
	Timestamp int64  `json:"timestamp"`
	Status    int    `json:"status"`
	Error     string `json:"error"`
	Exception string `json:"exception"`
	Message   string `json:"message"`
	Path      string `json:"path"`
}

var kindStatus = map[domain.ErrorKind]struct {
	status    int
	exception string
}{
	domain.KindInvalid:         {http.StatusBadRequest, "InvalidInputException"},
	domain.KindUnauthenticated: {http.StatusUnauthorized, "UserRestrictionException"},
	domain.KindForbidden:       {http.StatusForbidden, "UserRestrictionException"},
	domain.KindNotFound:        {http.StatusNotFound, "NotFoundException"},
	domain.KindConflict:        {http.StatusConflict, "ConflictException"},
	domain.KindGone:            {http.StatusGone, "InvitationExpiredException"},
	domain.KindUnavailable:     {http.StatusServiceUnavailable, "ServiceUnavailableException"},
	domain.KindPrecondition:    {http.StatusPreconditionFailed, "InvitationEmailMatchingException"},
	domain.KindLimit:           {http.StatusTooManyRequests, "TooManyRequestsException"},
}

// writeError answers with the spec's error body. Domain errors carry a
// message for the caller; anything else (a domain error of a kind without
// a status included) is logged and answered with a generic 500 so that
// internals never leak.
func writeError(w http.ResponseWriter, r *http.Request, err error) {
	var weak *auth.InsufficientAuthentication
	if errors.As(err, &weak) {
		// RFC 9470: the client learns which context to ask its provider for.
		w.Header().Set("WWW-Authenticate", fmt.Sprintf(`Bearer error="insufficient_user_authentication", error_description="a stronger authentication is required", acr_values=%q`, weak.ACRValues))
		slog.InfoContext(r.Context(), "request refused", "reason", "authentication context too weak", "acr_values", weak.ACRValues)
		writeErrorStatus(w, r, http.StatusUnauthorized, "UserRestrictionException", weak.Error())
		return
	}
	if domain.KindOf(err) == domain.KindUnauthenticated {
		w.Header().Set("WWW-Authenticate", bearerChallenge(r, `error="invalid_token"`))
	}
	var se *statusError
	if errors.As(err, &se) {
		writeErrorStatus(w, r, se.status, se.exception, se.message)
		return
	}
	var de *domain.Error
	if errors.As(err, &de) {
		if m, ok := kindStatus[de.Kind]; ok {
			writeErrorStatus(w, r, m.status, m.exception, de.Message)
			return
		}
	}
	route, operation := operationOf(r)
	slog.ErrorContext(r.Context(), "request failed", "operation", operation, "route", route, "cause", redactPersonalData(err.Error()))
	writeErrorStatus(w, r, http.StatusInternalServerError, "InternalServerError", "internal error; the request id is in the X-Correlation-Id header")
}

func writeErrorStatus(w http.ResponseWriter, r *http.Request, status int, exception, message string) {
	writeJSON(w, status, ErrorBody{
		Timestamp: time.Now().UnixMilli(), Status: status, Error: http.StatusText(status),
		Exception: exception, Message: message, Path: r.URL.Path,
	})
}

// operationOf names the request's operation for logs: the route pattern it
// matched ("GET /api/v1/users/other/{id}": no ids, no query) and its
// operationId; before routing (authentication), the method and path.
func operationOf(r *http.Request) (route, operation string) {
	route = r.Pattern
	if route == "" {
		route = r.Method + " " + r.URL.Path
	}
	if id := operationIDs()[route]; id != "" {
		return route, id
	}
	return route, route
}

// redactPersonalData removes e-mail addresses from an error's text before
// it is logged; ids stay, they tie the line to the audit trail.
func redactPersonalData(s string) string { return domain.RedactEmails(s) }

// statusError is an HTTP-level refusal that has no domain kind: an
// unsupported media type (415), a wrong method (405), too many attempts
// (429).
type statusError struct {
	status             int
	exception, message string
}

func (e *statusError) Error() string { return e.message }

// bearerChallenge is the WWW-Authenticate of a refused request (RFC 6750
// section 3): with the error code when the request carried a bearer token,
// bare when it carried no credentials at all.
func bearerChallenge(r *http.Request, withToken string) string {
	if _, bearer := oidcBearer(r); bearer {
		return `Bearer realm="invite", ` + withToken
	}
	return `Bearer realm="invite"`
}

// oidcBearer reports whether the request carries an Authorization: Bearer
// header.
func oidcBearer(r *http.Request) (string, bool) {
	scheme, token, _ := strings.Cut(r.Header.Get("Authorization"), " ")
	return token, strings.EqualFold(scheme, "Bearer")
}
