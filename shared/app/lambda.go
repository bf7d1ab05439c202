package app

import (
	"context"
	"log/slog"
	"os"
	"strings"
	"time"

	"github.com/aws/aws-lambda-go/events"
	"github.com/aws/aws-lambda-go/lambda"
	"github.com/awslabs/aws-lambda-go-api-proxy/httpadapter"

	"github.com/edu-invite/invite/shared/httpapi"
	"github.com/edu-invite/invite/shared/service"
)

// RunAPI is the whole main of an API Lambda: wire from the environment and
// serve one resource group behind API Gateway's HTTP API (payload 2.0).
func RunAPI(g httpapi.Group) {
	a, err := FromEnv(context.Background())
	if err != nil {
		NewLogger().Error("start-up failed", "error", err) // JSON, as every other line
		os.Exit(1)
	}
	slog.SetDefault(a.Logger)
	lambda.Start(httpadapter.NewV2(a.API.Handler(g)).ProxyWithContext)
}

// RunWeb is the whole main of the pages' Lambda (shared/web) behind API
// Gateway's HTTP API.
func RunWeb() {
	a, err := FromEnv(context.Background())
	if err != nil {
		slog.Error("start-up failed", "error", err)
		os.Exit(1)
	}
	slog.SetDefault(a.Logger)
	lambda.Start(httpadapter.NewV2(a.Pages.Handler()).ProxyWithContext)
}

// RunScheduled is the whole main of a Lambda that EventBridge invokes (a
// schedule or an event rule): wire from the environment and run job for
// each event.
func RunScheduled(job func(ctx context.Context, a *App, ev events.EventBridgeEvent) (any, error)) {
	a, err := FromEnv(context.Background())
	if err != nil {
		NewLogger().Error("start-up failed", "error", err) // JSON, as every other line
		os.Exit(1)
	}
	slog.SetDefault(a.Logger)
	name := jobName(os.Getenv("AWS_LAMBDA_FUNCTION_NAME"))
	lambda.Start(func(ctx context.Context, ev events.EventBridgeEvent) (any, error) {
		started := time.Now()
		res, err := job(ctx, a, ev)
		if name != "" {
			a.Service.RecordJobRun(ctx, name, started, res, err)
		}
		return res, err
	})
}

// jobName is the scheduled job a function name runs (the CDK app names
// functions "<stack>-<job>…"), "" when none matches.
func jobName(function string) string {
	best := ""
	for _, j := range service.ScheduledJobs {
		if strings.Contains(function, j) && len(j) > len(best) {
			best = j
		}
	}
	return best
}
