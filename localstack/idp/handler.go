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
	return mux
}

// discoveryDocument lists what a verifier needs (issuer, jwks_uri, algorithms)
// and what a developer needs to find /token. There is no authorization
// endpoint: nobody logs in here.
type discoveryDocument struct {
	Issuer                           string   `json:"issuer"`
	JWKSURI                          string   `json:"jwks_uri"`
	TokenEndpoint                    string   `json:"token_endpoint"`
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
