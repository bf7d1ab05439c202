package oidc

import (
	"context"
	"errors"

	gooidc "github.com/coreos/go-oidc/v3/oidc"
)

// keyFetchReport is where fetchReportingKeySet records a failed JWKS fetch for
// the Verify call that caused it.
type keyFetchReport struct{ err error }

type keyFetchReportKey struct{}

// fetchReportingKeySet wraps go-oidc's RemoteKeySet (which caches the JWKS and
// refetches it when a token's kid is unknown) to tell "the IdP could not be
// reached" apart from "the signature is wrong". go-oidc flattens the key set's
// error with %v, so the distinction travels through the context instead.
//
// RemoteKeySet returns an error that wraps another only when fetching the
// JWKS failed ("fetching keys %w"); a signature no key verifies is a plain
// errors.New. TestJWKSUnavailable pins this so an upgrade that changes it is
// noticed.
type fetchReportingKeySet struct {
	remote gooidc.KeySet
}

func (k fetchReportingKeySet) VerifySignature(ctx context.Context, jwt string) ([]byte, error) {
	payload, err := k.remote.VerifySignature(ctx, jwt)
	if err != nil && errors.Unwrap(err) != nil {
		if report, ok := ctx.Value(keyFetchReportKey{}).(*keyFetchReport); ok {
			report.err = err
		}
	}
	return payload, err
}
