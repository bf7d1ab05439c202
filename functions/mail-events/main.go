// Command mail-events is the Lambda that EventBridge invokes with the SES
// events of the service's configuration set (bounces and complaints): it
// records them on the mail outbox item the e-mail came from.
package main

import (
	"context"

	"github.com/aws/aws-lambda-go/events"

	"github.com/edu-invite/invite/shared/app"
)

func main() {
	app.RunScheduled(func(ctx context.Context, a *app.App, ev events.EventBridgeEvent) (any, error) {
		return a.HandleMailEvent(ctx, ev.Detail)
	})
}
