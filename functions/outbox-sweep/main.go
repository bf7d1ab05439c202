// Command outbox-sweep is the scheduled Lambda (EventBridge, every minute)
// that re-sends SCIM deliveries committed but never put on the queue, and
// retries e-mails that SES did not take.
package main

import (
	"context"
	"time"

	"github.com/aws/aws-lambda-go/events"

	"github.com/edu-invite/invite/shared/app"
)

func main() {
	app.RunScheduled(func(ctx context.Context, a *app.App, _ events.EventBridgeEvent) (any, error) {
		return a.Sweep(ctx, time.Now())
	})
}
