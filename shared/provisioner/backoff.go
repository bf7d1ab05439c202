package provisioner

import (
	"context"
	"errors"
	"math/rand/v2"
	"time"

	"github.com/aws/aws-lambda-go/events"

	"github.com/edu-invite/invite/shared/scim"
)

// Backoff delays the next receive of a message: with SQS, by changing its
// visibility timeout. A FIFO group stays blocked behind it meanwhile.
type Backoff interface {
	Delay(ctx context.Context, m events.SQSMessage, d time.Duration) error
}

// Backoff bounds: the first retry after about baseDelay, doubling per
// attempt up to maxDelay; Retry-After is honoured up to maxRetryAfter.
const (
	baseDelay     = 2 * time.Second
	maxDelay      = 10 * time.Minute
	maxRetryAfter = time.Hour
)

// retryDelay is how long to wait before the next attempt of a delivery
// that failed transiently on its attempt-th receive: what the SP asked for
// (Retry-After) or the circuit breaker's pause, else exponential backoff
// with jitter, so that the retries of many messages do not arrive at an
// SP that just came back all at once.
func retryDelay(err error, attempt int, now time.Time, jitter func() float64) time.Duration {
	return RetryPolicy{}.delay(err, attempt, now, jitter)
}

func (r RetryPolicy) delay(err error, attempt int, now time.Time, jitter func() float64) time.Duration {
	baseDelay, maxDelay := r.bounds()
	if ra := scim.RetryAfter(err); ra > 0 {
		return min(ra, maxRetryAfter)
	}
	var open *ErrCircuitOpen
	if errors.As(err, &open) {
		return max(open.Until.Sub(now), time.Second)
	}
	d := baseDelay
	for i := 1; i < attempt && d < maxDelay; i++ {
		d *= 2
	}
	d = min(d, maxDelay)
	// Full jitter over the upper half: between d/2 and d.
	return d/2 + time.Duration(jitter()*float64(d/2))
}

// delayRetry asks the queue to hold a failed message back for its backoff;
// without a Backoff the queue's visibility timeout applies. It returns the
// delay applied (0: none).
func (p *Provisioner) delayRetry(ctx context.Context, m events.SQSMessage, attempt int, cause error) time.Duration {
	if p.Backoff == nil {
		return 0
	}
	d := p.Retry.delay(cause, attempt, time.Now(), rand.Float64)
	if err := p.Backoff.Delay(ctx, m, d); err != nil {
		p.log().WarnContext(ctx, "backoff not applied; the queue's visibility timeout holds", "message", m.MessageId, "error", err)
		return 0
	}
	return d
}

// delayFollowers gives the messages failed behind a group's head the head's
// backoff. A FIFO group stays locked while any of its received messages is
// invisible, so without this the followers would keep the group (and the
// head's retry) waiting for the queue's whole visibility timeout (6 min in
// AWS), whatever the head's backoff or Retry-After said.
func (p *Provisioner) delayFollowers(ctx context.Context, followers []events.SQSMessage, d time.Duration) {
	if p.Backoff == nil || d <= 0 {
		return
	}
	for _, m := range followers {
		if err := p.Backoff.Delay(ctx, m, d); err != nil {
			p.log().WarnContext(ctx, "backoff not applied; the queue's visibility timeout holds", "message", m.MessageId, "error", err)
		}
	}
}

// retryLater is a transient failure and the backoff applied to it.
type retryLater struct {
	err   error
	delay time.Duration
}

func (e *retryLater) Error() string { return e.err.Error() }
func (e *retryLater) Unwrap() error { return e.err }
