// Command outbox-sweep is the scheduled Lambda that re-sends SCIM
// deliveries that were committed but never reached the queue.
package main

import (
	"context"
	"log/slog"
	"os"

	"github.com/aws/aws-lambda-go/events"
	"github.com/aws/aws-lambda-go/lambda"

	"github.com/edu-invite/invite/shared/app"
	"github.com/edu-invite/invite/shared/service"
)

func main() {
	a, err := app.FromEnv(context.Background())
	if err != nil {
		slog.Error("start-up failed", "error", err)
		os.Exit(1)
	}
	lambda.Start(func(ctx context.Context, _ events.EventBridgeEvent) (service.SweepResult, error) {
		return a.Service.SweepOutbox(ctx, 100)
	})
}
