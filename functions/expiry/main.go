// Command expiry is the scheduled Lambda (EventBridge, hourly) that sends
// expiry reminders and ends memberships whose end date has passed.
package main

import (
	"context"

	"github.com/aws/aws-lambda-go/events"

	"github.com/edu-invite/invite/shared/app"
	"github.com/edu-invite/invite/shared/service"
)

// Result is what one run did.
type Result struct {
	Reminded service.ReminderResult `json:"reminded"`
	Removed  service.ExpiryResult   `json:"removed"`
}

func main() {
	app.RunScheduled(func(ctx context.Context, a *app.App, _ events.EventBridgeEvent) (any, error) {
		reminded, err := a.Service.SendReminders(ctx)
		if err != nil {
			return nil, err
		}
		removed, err := a.Service.RemoveExpired(ctx)
		return Result{Reminded: reminded, Removed: removed}, err
	})
}
