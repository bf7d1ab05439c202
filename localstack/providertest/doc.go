// Package providertest runs the service against a certified third-party
// OpenID Provider (npm oidc-provider, started by localstack/substitutes) in
// the ordinary configurations an institution's provider may have: claims in
// the ID token, claims at userinfo only, and opaque access tokens checked
// through introspection. For each, the guest's journey, step-up with a
// provider that treats acr_values as a wish, the console as a super user
// named by sub, logout at both ends and back-channel logout run in Chromium,
// and the API's refusals (an ID token, a client's own token as a person, a
// too weak authentication context) over HTTP. It holds tests only; one
// provider process and one local stack serve each configuration.
package providertest
