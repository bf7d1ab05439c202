package ses

import (
	"errors"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/aws/retry"
)

// retryableCodes are SES error codes worth trying again later, besides the
// SDK's own throttling codes (TooManyRequestsException, Throttling, ...).
var retryableCodes = map[string]struct{}{
	"ServiceUnavailable":            {},
	"ServiceUnavailableException":   {},
	"InternalFailure":               {},
	"InternalServiceErrorException": {},
}

// retryables asks the SDK's default checks first, so that a cancelled
// context is final, then SES codes and any 429 or 5xx status.
var retryables = retry.IsErrorRetryables(append(append([]retry.IsErrorRetryable{}, retry.DefaultRetryables...),
	retry.RetryableErrorCode{Codes: retryableCodes},
	retry.IsErrorRetryableFunc(overloadedStatus),
))

// IsRetryable reports whether a Send error is transient (throttling, SES
// unavailable, a dropped connection), so the mail should be sent again later
// rather than given up on. The SDK client has already retried a few times by
// then; this is for the caller's own, slower retry (e.g. a queue redelivery).
func IsRetryable(err error) bool {
	return err != nil && retryables.IsErrorRetryable(err) == aws.TrueTernary
}

// overloadedStatus says yes to 429 and every 5xx, not only the SDK's
// 500/502/503/504.
func overloadedStatus(err error) aws.Ternary {
	var withStatus interface{ HTTPStatusCode() int }
	if !errors.As(err, &withStatus) {
		return aws.UnknownTernary
	}
	if s := withStatus.HTTPStatusCode(); s == 429 || s >= 500 {
		return aws.TrueTernary
	}
	return aws.UnknownTernary
}
