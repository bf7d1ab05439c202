// Command provisioner is the Lambda that consumes the SCIM provisioning
// queue and delivers each change to its SP.
package main

import (
	"context"
	"log/slog"
	"os"

	"github.com/aws/aws-lambda-go/lambda"

	"github.com/edu-invite/invite/shared/app"
)

func main() {
	a, err := app.FromEnv(context.Background())
	if err != nil {
		app.NewLogger().Error("start-up failed", "error", err)
		os.Exit(1)
	}
	slog.SetDefault(a.Logger) // every line JSON, with the correlation id
	lambda.Start(a.Provisioner.HandleSQS)
}
