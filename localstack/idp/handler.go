package idp

import (
	"encoding/json"
	"net/http"
)

// Handler serves the IdP. Its routes are relative, so it works both at the
// root of a server and mounted under a prefix with http.StripPrefix, as long
// as the issuer URL given to New is where the prefix ends up.
func (p *IdP) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /.well-known/openid-configuration", p.serveDiscovery)
	mux.HandleFunc("GET /jwks", p.serveJWKS)
	mux.HandleFunc("POST /token", p.serveToken)
	mux.HandleFunc("GET /authorize", p.serveAuthorize)
	mux.HandleFunc("POST /authorize", p.serveAuthorizeForm)
	mux.HandleFunc("GET /logout", p.serveLogout)
	return mux
}

// discoveryDocument lists what a verifier needs (issuer, jwks_uri, algorithms),
// what a developer needs to find /token, and what a relying party needs for
// the browser's code flow (authorize.go).
type discoveryDocument struct {
	Issuer                           string   `json:"issuer"`
	JWKSURI                          string   `json:"jwks_uri"`
	TokenEndpoint                    string   `json:"token_endpoint"`
	AuthorizationEndpoint            string   `json:"authorization_endpoint"`
	EndSessionEndpoint               string   `json:"end_session_endpoint"`
	ResponseTypesSupported           []string `json:"response_types_supported"`
	GrantTypesSupported              []string `json:"grant_types_supported"`
	CodeChallengeMethodsSupported    []string `json:"code_challenge_methods_supported"`
	TokenEndpointAuthMethods         []string `json:"token_endpoint_auth_methods_supported"`
	IDTokenSigningAlgValuesSupported []string `json:"id_token_signing_alg_values_supported"`
	SubjectTypesSupported            []string `json:"subject_types_supported"`
	ClaimsSupported                  []string `json:"claims_supported"`
}

// supportedClaims are the OpenConext claims the service reads; advertised for
// humans reading the discovery document, not enforced.
var supportedClaims = []string{
	"sub", "email", "given_name", "family_name", "name",
	"eduperson_principal_name", "schac_home_organization",
	"subject_id", "uids", "eduid", "acr",
}

func (p *IdP) serveDiscovery(w http.ResponseWriter, _ *http.Request) {
	writeJSON(w, http.StatusOK, discoveryDocument{
		Issuer:                           p.issuer,
		JWKSURI:                          p.endpoint("/jwks"),
		TokenEndpoint:                    p.endpoint("/token"),
		AuthorizationEndpoint:            p.endpoint("/authorize"),
		EndSessionEndpoint:               p.endpoint("/logout"),
		ResponseTypesSupported:           []string{"code"},
		GrantTypesSupported:              []string{"authorization_code"},
		CodeChallengeMethodsSupported:    []string{"S256"},
		TokenEndpointAuthMethods:         []string{"client_secret_basic", "client_secret_post"},
		IDTokenSigningAlgValuesSupported: []string{string(signingAlgorithm)},
		SubjectTypesSupported:            []string{"public"},
		ClaimsSupported:                  supportedClaims,
	})
}

func (p *IdP) serveJWKS(w http.ResponseWriter, _ *http.Request) {
	writeJSON(w, http.StatusOK, p.jwks())
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	// Keys rotate and tokens are credentials: let nothing cache either.
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}
