package app

import (
	"context"
	"fmt"
	"log/slog"

	"github.com/aws/aws-sdk-go-v2/aws"
	awsconfig "github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/smithy-go/logging"
)

// LoadAWSConfig is the standard SDK configuration (environment, profile,
// endpoints), with the SDK's own warnings (a response checksum it could
// not check, a retry) written as JSON log lines like every other line,
// instead of the SDK's plain lines on standard error.
func LoadAWSConfig(ctx context.Context) (aws.Config, error) {
	return awsconfig.LoadDefaultConfig(ctx, awsconfig.WithLogger(sdkLogger{log: NewLogger()}))
}

// sdkLogger passes the SDK's log lines to slog.
type sdkLogger struct{ log *slog.Logger }

func (l sdkLogger) Logf(c logging.Classification, format string, v ...any) {
	level := slog.LevelWarn
	if c == logging.Debug {
		level = slog.LevelDebug
	}
	l.log.Log(context.Background(), level, "AWS SDK", "detail", fmt.Sprintf(format, v...))
}
