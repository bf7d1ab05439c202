package app

import (
	"context"
	"log/slog"
	"os"

	"github.com/aws/aws-lambda-go/events"
	"github.com/aws/aws-lambda-go/lambda"
	"github.com/awslabs/aws-lambda-go-api-proxy/httpadapter"

	"github.com/edu-invite/invite/shared/httpapi"
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
	lambda.Start(func(ctx context.Context, ev events.EventBridgeEvent) (any, error) {
		return job(ctx, a, ev)
	})
}
