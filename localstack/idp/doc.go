// Package idp is a minimal OpenID Connect provider for the local stack and
// for Go tests. It stands in for the institution's IdP (OpenConext in the
// reference service) on one machine, where no outside IdP is reachable.
//
// It serves, relative to wherever it is mounted:
//
//	GET  /.well-known/openid-configuration  discovery document
//	GET  /jwks                              public signing keys, each with a kid
//	POST /token                             mints an access token (see below)
//
// The service never special-cases it: the verifier in shared/oidc only sees an
// issuer URL and does ordinary discovery against it.
//
// POST /token is a development convenience of the embedded local stack and is
// NEVER deployed: it hands a signed token with whatever identity the caller
// asks for to anyone who can reach it, with no authentication at all. It
// exists so that a developer (or a script) can obtain a bearer token for the
// local API without a browser login flow. Real deployments point the service
// at the institution's issuer and never include this package.
package idp
