package oidc

import "errors"

// Sentinels for the HTTP layer. Match them with errors.Is; answer the client
// with a fixed body, never err.Error(), which names the failed check for logs.
var (
	// ErrInvalidToken: the token must not be accepted (malformed, bad
	// signature, wrong issuer or audience, missing sub, expired). Answer 401.
	ErrInvalidToken = errors.New("oidc: invalid bearer token")

	// ErrTokenExpired: the token was otherwise valid but has expired. It also
	// matches ErrInvalidToken; it exists so a 401 can say error="invalid_token"
	// with a hint that a refresh will help.
	ErrTokenExpired error = &sentinel{msg: "oidc: bearer token expired", parent: ErrInvalidToken}

	// ErrProviderUnavailable: the issuer's discovery document or JWKS could
	// not be fetched, so the token could not be judged. Answer 503, not 401:
	// the caller's token may be fine.
	ErrProviderUnavailable = errors.New("oidc: identity provider unavailable")
	// ErrMisconfigured: the provider answered, but not as configured (its
	// issuer differs, an endpoint this service needs is missing). It also
	// matches ErrProviderUnavailable (503: the caller is not at fault); the
	// error's text says what to fix and belongs in the log.
	ErrMisconfigured error = &sentinel{msg: "oidc: identity provider misconfigured", parent: ErrProviderUnavailable}
	// ErrNotAccessToken: a valid token of the provider that is not an access
	// token for this API (an ID token, a logout token). It matches
	// ErrInvalidToken.
	ErrNotAccessToken error = &sentinel{msg: "oidc: not an access token", parent: ErrInvalidToken}
)

// sentinel is an error value that also matches a broader sentinel.
type sentinel struct {
	msg    string
	parent error
}

func (s *sentinel) Error() string { return s.msg }
func (s *sentinel) Unwrap() error { return s.parent }

// verifyError carries a sentinel kind for errors.Is and the underlying cause
// for logs.
type verifyError struct {
	kind  error
	cause error
}

func (e *verifyError) Error() string {
	if e.cause == nil {
		return e.kind.Error()
	}
	return e.kind.Error() + ": " + e.cause.Error()
}

func (e *verifyError) Unwrap() []error {
	if e.cause == nil {
		return []error{e.kind}
	}
	return []error{e.kind, e.cause}
}

func newError(kind, cause error) error { return &verifyError{kind: kind, cause: cause} }
