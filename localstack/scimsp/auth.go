package scimsp

import (
	"crypto/subtle"
	"encoding/json"
	"errors"
	"net/http"
	"strconv"
	"strings"

	elimity "github.com/elimity-com/scim"
)

// authenticator checks the Authorization header against the one configured
// method.
type authenticator struct {
	basic               bool
	user, password, tok string
}

func newAuthenticator(o Options) (authenticator, error) {
	hasBasic := o.BasicUser != "" || o.BasicPassword != ""
	hasBearer := o.BearerToken != ""
	switch {
	case hasBasic && hasBearer:
		return authenticator{}, errors.New("configure basic or bearer authentication, not both")
	case hasBearer:
		return authenticator{tok: o.BearerToken}, nil
	case o.BasicUser != "" && o.BasicPassword != "":
		return authenticator{basic: true, user: o.BasicUser, password: o.BasicPassword}, nil
	case hasBasic:
		return authenticator{}, errors.New("basic authentication needs both a user and a password")
	default:
		return authenticator{}, errors.New("configure basic or bearer authentication")
	}
}

func (a authenticator) ok(r *http.Request) bool {
	if a.basic {
		user, pass, ok := r.BasicAuth()
		// Both compared always, so that timing does not tell which was wrong.
		userOK := subtle.ConstantTimeCompare([]byte(user), []byte(a.user)) == 1
		passOK := subtle.ConstantTimeCompare([]byte(pass), []byte(a.password)) == 1
		return ok && userOK && passOK
	}
	scheme, token, found := strings.Cut(r.Header.Get("Authorization"), " ")
	return found && strings.EqualFold(scheme, "Bearer") &&
		subtle.ConstantTimeCompare([]byte(strings.TrimSpace(token)), []byte(a.tok)) == 1
}

// require answers 401 with a SCIM error body (RFC 7644 3.12) unless the
// request carries the configured credentials.
func (a authenticator) require(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if a.ok(r) {
			next.ServeHTTP(w, r)
			return
		}
		if a.basic {
			w.Header().Set("WWW-Authenticate", `Basic realm="scimsp"`)
		} else {
			w.Header().Set("WWW-Authenticate", `Bearer realm="scimsp"`)
		}
		writeSCIMError(w, http.StatusUnauthorized, "", "Authorization failure: the Authorization header is invalid or missing.")
	})
}

// writeSCIMError writes an error body as the elimity server does for its
// own errors (status as a string, RFC 7644 3.12).
func writeSCIMError(w http.ResponseWriter, status int, scimType, detail string) {
	body := struct {
		Schemas  []string `json:"schemas"`
		ScimType string   `json:"scimType,omitempty"`
		Detail   string   `json:"detail,omitempty"`
		Status   string   `json:"status"`
	}{[]string{"urn:ietf:params:scim:api:messages:2.0:Error"}, scimType, detail, strconv.Itoa(status)}
	w.Header().Set("Content-Type", "application/scim+json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(body)
}

// authenticationSchemes advertises the configured method in
// /ServiceProviderConfig.
func (a authenticator) authenticationSchemes() []elimity.AuthenticationScheme {
	if a.basic {
		return []elimity.AuthenticationScheme{{
			Type: elimity.AuthenticationTypeHTTPBasic, Name: "HTTP Basic",
			Description: "Authentication with a user name and password.", Primary: true,
		}}
	}
	return []elimity.AuthenticationScheme{{
		Type: elimity.AuthenticationTypeOauthBearerToken, Name: "Bearer token",
		Description: "Authentication with a bearer token issued beforehand.", Primary: true,
	}}
}
