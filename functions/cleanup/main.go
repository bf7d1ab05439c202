// Command cleanup is the scheduled Lambda (EventBridge, daily) that deletes
// expired invitations and expired API tokens. (Expired memberships are
// ended by expiry, which may send SCIM changes and e-mail; this function
// may do neither.)
package main

import (
	"context"

	"github.com/aws/aws-lambda-go/events"

	"github.com/edu-invite/invite/shared/app"
)

func main() {
	app.RunScheduled(func(ctx context.Context, a *app.App, _ events.EventBridgeEvent) (any, error) {
		removed, err := a.Service.CleanupInvitations(ctx)
		if err != nil {
			return map[string]int{"invitations": removed}, err
		}
		tokens, err := a.Service.CleanupAPITokens(ctx)
		return map[string]int{"invitations": removed, "apiTokens": tokens}, err
	})
}
