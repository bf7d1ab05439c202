// Command cleanup is the scheduled Lambda (EventBridge, daily) that deletes
// expired invitations and ends expired memberships (S6).
package main

import (
	"context"

	"github.com/aws/aws-lambda-go/events"

	"github.com/edu-invite/invite/shared/app"
)

func main() {
	app.RunScheduled(func(ctx context.Context, a *app.App, _ events.EventBridgeEvent) (any, error) {
		return a.Service.Cleanup(ctx)
	})
}
