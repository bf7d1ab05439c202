// Package oidc verifies the OIDC bearer tokens (JWT access tokens) people
// present to the REST API, as issued by the institution's IdP (OpenConext in
// the reference service), and turns them into Claims.
//
// Verification checks the signature against the issuer's JWKS (found through
// OIDC discovery, cached, refetched when a token names an unknown kid), the
// issuer, the audience, expiry/not-before and a non-empty sub. Errors are
// sentinels for the HTTP layer (see errors.go); their text is for logs and
// never contains the token. This package logs nothing.
package oidc
