package httpapi_test

import (
	"context"

	"github.com/edu-invite/invite/shared/domain"
)

func systemMatrixCases() (cases []matrixCase) {
	su := upTo(200, "superToken")
	started := upTo(202, "superToken") // a job that runs in the background
	cases = append(cases,
		matrixCase{name: "health", method: "GET", path: "/health", want: w9(200, 200, 200, 200, 200, 200, 200, 200, 200)},
		matrixCase{name: "OpenAPI document", method: "GET", path: "/api/docs/openapi.json", want: w9(200, 200, 200, 200, 200, 200, 200, 200, 200)},
		matrixCase{name: "S4 expiring user-roles", method: "GET", path: "/api/v1/system/expiry-user-roles", want: su},
		matrixCase{name: "S5 expiry notifications", method: "GET", path: "/api/v1/system/cron/expiry-notifications", want: started},
		matrixCase{name: "S6 cleanup", method: "GET", path: "/api/v1/system/cron/cleanup", want: started},
		matrixCase{name: "failed deliveries", method: "GET", path: "/api/v1/system/deliveries/failed?sp=sp-a", want: su},
		matrixCase{name: "replay deliveries", method: "POST", path: "/api/v1/system/deliveries/replay", body: `{"sp":"sp-a"}`, want: su},
		matrixCase{name: "discard deliveries", method: "POST", path: "/api/v1/system/deliveries/discard", body: `{"sp":"sp-a"}`, want: su},
		matrixCase{name: "reconcile an SP (dry run)", method: "POST", path: "/api/v1/system/deliveries/reconcile", body: `{"sp":"sp-a"}`, want: started},
		matrixCase{name: "reconcile an SP", method: "POST", path: "/api/v1/system/deliveries/reconcile", body: `{"sp":"sp-a","dryRun":false}`, want: started},
	)
	return cases
}

// plannedReconciler answers reconcile runs with an empty report of the SP.
type plannedReconciler struct{}

func (plannedReconciler) Reconcile(_ context.Context, spID string, opts domain.ReconcileOptions) (domain.ReconcileReport, error) {
	return domain.ReconcileReport{SP: spID, DryRun: opts.DryRun, Repairs: []domain.Repair{}}, nil
}
