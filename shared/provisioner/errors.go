package provisioner

import (
	"errors"
	"fmt"
	"time"

	"github.com/edu-invite/invite/shared/scim"
)

// errNotCreatedYet is the retryable failure of a delivery that needs a
// resource another line creates (a membership before its group).
var errNotCreatedYet = errors.New("the resource is not at the SP yet; its creation goes first in its own line")

// awaitCreation is how long a delivery waits, before it fails for a retry,
// for another line to create the resource it needs: usually that line runs
// at the same moment, and a retry would cost a whole backoff.
const awaitCreation = 3 * time.Second

// permanentError marks a failure that retrying cannot heal.
type permanentError struct{ err error }

func (e permanentError) Error() string { return e.err.Error() }
func (e permanentError) Unwrap() error { return e.err }

func permanent(format string, args ...any) error {
	return permanentError{err: fmt.Errorf(format, args...)}
}

// IsPermanent reports whether a delivery error should go to the dead-letter
// queue at once: SCIM answers that retrying cannot change (400, 401, 403,
// 404 on a resource that must exist, schema errors) and configuration
// errors. Everything else (timeouts, 429, 5xx, storage hiccups) is retried.
func IsPermanent(err error) bool {
	if err == nil {
		return false
	}
	var pe permanentError
	if errors.As(err, &pe) {
		return true
	}
	var stale *stalePutError
	if errors.As(err, &stale) {
		return false
	}
	var se *scim.Error
	if errors.As(err, &se) {
		return !se.Retryable()
	}
	return false
}
