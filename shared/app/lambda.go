package app

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"os"
	"time"

	"github.com/aws/aws-lambda-go/events"
	"github.com/aws/aws-lambda-go/lambda"

	"github.com/edu-invite/invite/shared/domain"
	"github.com/edu-invite/invite/shared/httpapi"
)

// The Run functions are the whole main of each Lambda: wire from the
// environment once per cold start, then hand one handler to the runtime.

// RunAPI serves one resource group of the REST API behind API Gateway's
// HTTP API (payload 2.0).
func RunAPI(g httpapi.Group) {
	a := start()
	lambda.Start(newGatewayAdapter(a.API.Handler(g)).Handle)
}

// RunWeb serves the pages (shared/web) behind API Gateway's HTTP API.
func RunWeb() {
	a := start()
	lambda.Start(newGatewayAdapter(a.Pages.Handler()).Handle)
}

// RunScheduled runs the scheduled job called name (see Jobs) each time its
// EventBridge schedule invokes the Lambda.
func RunScheduled(name string) {
	a := start()
	lambda.Start(func(ctx context.Context, _ events.EventBridgeEvent) (any, error) {
		return a.RunJob(ctx, name, time.Now())
	})
}

// RunReconcile runs the reconcile job: every SP on its daily schedule, or
// the one SP its event names when the system function invokes it on demand
// (ReconcileRequest), since only this function and the provisioner may
// read the SPs' credentials.
func RunReconcile() {
	a := start()
	lambda.Start(func(ctx context.Context, ev events.EventBridgeEvent) (any, error) {
		var one ReconcileRequest
		if json.Unmarshal(ev.Detail, &one) == nil && one.JobID != "" {
			// An on-demand run started in the background records its
			// report as its job, which the caller polls; a retried
			// invocation finds the job claimed and does nothing.
			ran, err := a.Service.RunReconcileJob(ctx, one.JobID, func(ctx context.Context) (any, error) {
				return a.Reconcile(ctx, ev.Detail)
			})
			return map[string]bool{"ran": ran}, err
		}
		started := time.Now()
		res, err := a.Reconcile(ctx, ev.Detail)
		if one.SP == "" {
			// The daily run of every SP is the job the console shows; a
			// synchronous run for one SP answers its caller only.
			a.Service.RecordJobRun(ctx, "reconcile", started, res, err)
		}
		return res, err
	})
}

// RunJobs runs the on-demand jobs (domain.JobRequest) that the system
// function starts asynchronously: maintenance longer than a request.
func RunJobs() {
	a := start()
	lambda.Start(func(ctx context.Context, ev events.EventBridgeEvent) (any, error) {
		var req domain.JobRequest
		if err := json.Unmarshal(ev.Detail, &req); err != nil || req.ID == "" {
			return nil, fmt.Errorf("not a job request (%s)", ev.DetailType)
		}
		ran, err := a.Service.RunJob(ctx, req)
		return map[string]bool{"ran": ran}, err
	})
}

// RunMailEvents records each SES event that the EventBridge rule of the
// service's configuration set delivers (bounces and complaints).
func RunMailEvents() {
	a := start()
	lambda.Start(func(ctx context.Context, ev events.EventBridgeEvent) (any, error) {
		return a.HandleMailEvent(ctx, ev.Detail)
	})
}

// RunProvisioner consumes the SCIM provisioning queue (SQS, partial batch
// failures).
func RunProvisioner() {
	a := start()
	lambda.Start(a.Provisioner.HandleSQS)
}

// start wires the App from the environment and makes its logger the
// default, so that every line is JSON with the correlation id; a wiring
// failure ends the process.
func start() *App {
	a, err := FromEnv(context.Background())
	if err != nil {
		NewLogger().Error("start-up failed", "error", err) // JSON, as every other line
		os.Exit(1)
	}
	slog.SetDefault(a.Logger)
	return a
}
