package domain

import (
	"errors"
	"fmt"
)

// ErrorKind classifies a failure so that the HTTP layer can map it to a status
// without knowing where it came from.
type ErrorKind int

const (
	KindInvalid         ErrorKind = iota + 1 // 400: bad input
	KindForbidden                            // 403 (or 400 where the spec says so)
	KindNotFound                             // 404
	KindConflict                             // 409: uniqueness or a concurrent change
	KindGone                                 // 410: expired or already used
	KindUnauthenticated                      // 401
	KindUnavailable                          // 503: a dependency (the IdP) cannot be reached
	KindPrecondition                         // 412: the caller is not the one a precondition names (e-mail equality)
	KindLimit                                // 429: a quota of the caller is used up (invitations per day)
)

// Error is a domain failure with a message that is safe to show to the caller.
type Error struct {
	Kind    ErrorKind
	Message string
}

func (e *Error) Error() string { return e.Message }

func newError(kind ErrorKind, format string, args ...any) error {
	return &Error{Kind: kind, Message: fmt.Sprintf(format, args...)}
}

func Invalidf(format string, args ...any) error   { return newError(KindInvalid, format, args...) }
func Forbiddenf(format string, args ...any) error { return newError(KindForbidden, format, args...) }
func NotFoundf(format string, args ...any) error  { return newError(KindNotFound, format, args...) }
func Conflictf(format string, args ...any) error  { return newError(KindConflict, format, args...) }
func Gonef(format string, args ...any) error      { return newError(KindGone, format, args...) }
func Unauthenticatedf(format string, args ...any) error {
	return newError(KindUnauthenticated, format, args...)
}

// Preconditionf is a request that cannot apply to this caller: an
// invitation with e-mail equality accepted from an account with another
// address (the acceptance page offers to sign in with another account).
func Preconditionf(format string, args ...any) error {
	return newError(KindPrecondition, format, args...)
}

// Limitf is a request over a quota of its caller, such as the invitations
// an inviter may send in a day.
func Limitf(format string, args ...any) error { return newError(KindLimit, format, args...) }

func Unavailablef(format string, args ...any) error {
	return newError(KindUnavailable, format, args...)
}

// KindOf returns the kind of a domain error, or 0 for any other error.
func KindOf(err error) ErrorKind {
	var de *Error
	if errors.As(err, &de) {
		return de.Kind
	}
	return 0
}

// IsNotFound reports whether err is a domain not-found error.
func IsNotFound(err error) bool { return KindOf(err) == KindNotFound }

// ErrVersionConflict is returned by storage when an optimistic-lock check fails.
var ErrVersionConflict = &Error{Kind: KindConflict, Message: "the record was changed concurrently; retry"}
