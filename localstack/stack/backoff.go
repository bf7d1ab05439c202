package stack

import (
	"context"
	"time"

	"github.com/aws/aws-lambda-go/events"

	"github.com/edu-invite/invite/shared/provisioner"
)

// pollerAwareBackoff applies the provisioner's backoff at the queue and also
// tells the running poller, which must hold the message's FIFO group as SQS
// would (the substitute does not lock groups).
type pollerAwareBackoff struct {
	inner provisioner.Backoff
	stack *Stack
}

func (b pollerAwareBackoff) Delay(ctx context.Context, m events.SQSMessage, d time.Duration) error {
	if err := b.inner.Delay(ctx, m, d); err != nil {
		return err
	}
	b.stack.consumerMu.Lock()
	p := b.stack.Poller
	b.stack.consumerMu.Unlock()
	p.Delayed(m.MessageId, time.Now().Add(d))
	return nil
}
