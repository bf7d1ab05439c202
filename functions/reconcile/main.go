// Command reconcile is the scheduled Lambda (EventBridge, daily) that
// compares every SP with the service and repairs the difference: users and
// groups an SP lost, stale members and attributes, resources that left the
// service. A run that would delete more than RECONCILE_MAX_DELETE_SHARE of
// an SP stops there and changes nothing at it. Super users run it for one
// SP on demand, with a dry run first: POST /api/v1/system/deliveries/reconcile.
package main

import (
	"context"

	"github.com/aws/aws-lambda-go/events"

	"github.com/edu-invite/invite/shared/app"
)

func main() {
	app.RunScheduled(func(ctx context.Context, a *app.App, _ events.EventBridgeEvent) (any, error) {
		return a.Service.ReconcileSPs(ctx, a.Registry.TargetIDs())
	})
}
