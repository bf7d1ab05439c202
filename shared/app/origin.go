package app

import (
	"log/slog"
	"os"
	"strings"

	"github.com/edu-invite/invite/shared/middleware"
)

// originSecretRef is where the origin secret is: an explicit reference
// (env:… or secretsmanager:…), else the secret the CDK stack creates and
// names in ORIGIN_VERIFY_SECRET_ARN when CloudFront is in front. Unset, no
// origin check runs (no CloudFront: LocalStack, the local stack).
func originSecretRef() string {
	if ref := os.Getenv("ORIGIN_VERIFY_SECRET"); ref != "" {
		return ref
	}
	if arn := os.Getenv("ORIGIN_VERIFY_SECRET_ARN"); arn != "" {
		return "secretsmanager:" + arn
	}
	return ""
}

// originCheck is the check the API and the pages share (one cache, one
// re-read interval per function), nil when no secret is configured.
func originCheck(ref string, r middleware.SecretSource, logger *slog.Logger) *middleware.OriginCheck {
	if ref == "" {
		return nil
	}
	check := &middleware.OriginCheck{Secrets: r, Ref: ref, Logger: logger}
	if id, ok := strings.CutPrefix(ref, "secretsmanager:"); ok && !strings.ContainsAny(id, "?#") {
		// The value a rotation replaced passes until it is retired.
		check.PreviousRef = ref + "?versionStage=AWSPREVIOUS"
	}
	return check
}
