// Package substitutestest starts the local AWS substitutes for a test and
// stops them when it ends.
//
// When node, npm, java or the npm packages are unavailable the test is skipped with
// the reason, unless CI=true: in CI it fails, so a broken setup can never pass
// as a green run of skipped tests.
package substitutestest

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"

	"github.com/edu-invite/invite/localstack/substitutes"
)

// startTimeout bounds a substitute's start inside a test.
const startTimeout = 30 * time.Second

// DynamoDB returns the process's shared in-memory DynamoDB Local
// (substitutes.SharedDynamoDB), starting it on first use. Tests share it: each
// must use table names of its own.
func DynamoDB(t testing.TB) *substitutes.DynamoDB {
	t.Helper()
	d, err := substitutes.SharedDynamoDB()
	failOrSkip(t, err)
	return d
}

// SQS starts local-aws-sqs for t.
func SQS(t testing.TB) *substitutes.SQS {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), startTimeout)
	defer cancel()
	s, err := substitutes.StartSQS(ctx, "")
	failOrSkip(t, err)
	t.Cleanup(func() { _ = s.Close() })
	return s
}

// SES starts aws-ses-v2-local for t.
func SES(t testing.TB) *substitutes.SES {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), startTimeout)
	defer cancel()
	s, err := substitutes.StartSES(ctx, "")
	failOrSkip(t, err)
	t.Cleanup(func() { _ = s.Close() })
	return s
}

// Config is substitutes.AWSConfig, failing t on error.
func Config(t testing.TB, endpoints substitutes.Endpoints) aws.Config {
	t.Helper()
	cfg, err := substitutes.AWSConfig(context.Background(), endpoints)
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

func failOrSkip(t testing.TB, err error) {
	t.Helper()
	switch {
	case err == nil:
	case (errors.Is(err, substitutes.ErrNodeUnavailable) || errors.Is(err, substitutes.ErrJavaUnavailable)) && !substitutes.InCI():
		t.Skipf("skipping: the local substitutes are unavailable on this machine (run `make npm`, install java 17; with CI=true this fails): %v", err)
	default:
		t.Fatal(err)
	}
}
