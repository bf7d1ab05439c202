package ses

import (
	"errors"
	"fmt"

	awshttp "github.com/aws/aws-sdk-go-v2/aws/transport/http"
	"github.com/aws/smithy-go"
)

// sendError is a failed SendEmail with a message fit for logs.
//
// SES error messages can quote the addresses involved ("... failed the check:
// guest@example.org"), so for errors from the service only the error code,
// HTTP status and request id go into Error(). Failures before a response
// (connection refused, timeouts, cancelled contexts) keep the SDK's message,
// which names the endpoint but not the mail. The original error stays
// reachable through Unwrap for errors.As and IsRetryable.
type sendError struct {
	code      string
	status    int
	requestID string
	err       error
}

func newSendError(err error) error {
	e := &sendError{err: err}
	var apiErr smithy.APIError
	if errors.As(err, &apiErr) {
		e.code = apiErr.ErrorCode()
	}
	var respErr *awshttp.ResponseError
	if errors.As(err, &respErr) {
		e.status = respErr.HTTPStatusCode()
		e.requestID = respErr.ServiceRequestID()
	}
	return e
}

func (e *sendError) Error() string {
	if e.code == "" && e.status == 0 {
		return "ses: send email: " + e.err.Error()
	}
	return fmt.Sprintf("ses: send email: %s (HTTP %d, request id %q)", e.code, e.status, e.requestID)
}

func (e *sendError) Unwrap() error { return e.err }
