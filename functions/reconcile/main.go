// Command reconcile is the scheduled Lambda (EventBridge, daily) that
// compares every SP with the service and repairs the difference: users and
// groups an SP lost, stale members and attributes, resources that left the
// service. A run that would delete more than RECONCILE_MAX_DELETE_SHARE of
// an SP stops there and changes nothing at it. Super users run it for one
// SP on demand, dry run first, through POST /api/v1/system/deliveries/reconcile:
// the system function invokes this one with {"detail": {"sp": …}}, since
// only this function and the provisioner may read the SPs' credentials.
package main

import (
	"context"
	"encoding/json"

	"github.com/aws/aws-lambda-go/events"

	"github.com/edu-invite/invite/shared/app"
	"github.com/edu-invite/invite/shared/domain"
)

func main() {
	app.RunScheduled(func(ctx context.Context, a *app.App, ev events.EventBridgeEvent) (any, error) {
		var one app.ReconcileRequest
		if len(ev.Detail) > 0 {
			if err := json.Unmarshal(ev.Detail, &one); err != nil {
				return nil, err
			}
		}
		if one.SP == "" {
			return a.Service.ReconcileSPs(ctx, a.Registry.TargetIDs())
		}
		share := one.MaxDeleteShare
		if share == 0 {
			share = a.Settings.ReconcileMaxDeleteShare
		}
		return a.Provisioner.Reconcile(ctx, one.SP, domain.ReconcileOptions{DryRun: one.DryRun, MaxDeleteShare: share})
	})
}
