package idp

import (
	"encoding/json"
	"errors"
	"fmt"
	"mime"
	"net/http"
	"strconv"
	"time"
)

const (
	defaultTokenTTL = time.Hour
	maxTokenTTL     = 24 * time.Hour
	maxTokenRequest = 64 << 10
)

// reservedClaims are computed by the IdP; a /token caller may not set them
// (only Go tests, through Mint, may forge them).
var reservedClaims = []string{"iss", "iat", "exp", "nbf", "jti"}

type tokenResponse struct {
	AccessToken string `json:"access_token"`
	TokenType   string `json:"token_type"`
	ExpiresIn   int64  `json:"expires_in"`
}

type tokenError struct {
	Error       string `json:"error"`
	Description string `json:"error_description"`
}

// serveToken mints a token carrying the claims of the request body (a form or
// a JSON object). Development only: see the package comment.
func (p *IdP) serveToken(w http.ResponseWriter, r *http.Request) {
	r.Body = http.MaxBytesReader(w, r.Body, maxTokenRequest)
	if mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type")); mt == "application/x-www-form-urlencoded" {
		if err := r.ParseForm(); err == nil && r.PostForm.Get("grant_type") == "authorization_code" {
			p.redeemCode(w, r)
			return
		}
	}
	claims, err := readTokenRequest(r)
	if err != nil {
		writeJSON(w, http.StatusBadRequest, tokenError{Error: "invalid_request", Description: err.Error()})
		return
	}
	ttl, err := takeTTL(claims)
	if err != nil {
		writeJSON(w, http.StatusBadRequest, tokenError{Error: "invalid_request", Description: err.Error()})
		return
	}
	if sub, _ := claims["sub"].(string); sub == "" {
		writeJSON(w, http.StatusBadRequest, tokenError{Error: "invalid_request", Description: "sub is required"})
		return
	}
	for _, name := range reservedClaims {
		delete(claims, name)
	}
	if _, ok := claims["aud"]; !ok && p.DefaultAudience != "" {
		claims["aud"] = p.DefaultAudience
	}
	if _, ok := claims["aud"]; !ok {
		writeJSON(w, http.StatusBadRequest, tokenError{Error: "invalid_request", Description: "aud is required (no default audience configured)"})
		return
	}
	token, err := p.Mint(claims, "", ttl)
	if err != nil {
		writeJSON(w, http.StatusInternalServerError, tokenError{Error: "server_error", Description: "could not mint token"})
		return
	}
	writeJSON(w, http.StatusOK, tokenResponse{AccessToken: token, TokenType: "Bearer", ExpiresIn: int64(ttl / time.Second)})
}

// readTokenRequest returns the requested claims. A form field given more than
// once becomes a list, which is how OpenConext sends multi-valued attributes
// such as uids.
func readTokenRequest(r *http.Request) (map[string]any, error) {
	mediaType, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if mediaType == "application/json" {
		claims := map[string]any{}
		dec := json.NewDecoder(r.Body)
		dec.UseNumber()
		if err := dec.Decode(&claims); err != nil {
			return nil, fmt.Errorf("body is not a JSON object: %v", err)
		}
		return claims, nil
	}
	if err := r.ParseForm(); err != nil {
		return nil, fmt.Errorf("body is not a form: %v", err)
	}
	claims := make(map[string]any, len(r.PostForm))
	for name, values := range r.PostForm {
		if len(values) == 1 {
			claims[name] = values[0]
		} else {
			claims[name] = values
		}
	}
	return claims, nil
}

// takeTTL removes expires_in (seconds, number or numeric string) from claims
// and returns it as a duration, the default when absent.
func takeTTL(claims map[string]any) (time.Duration, error) {
	raw, ok := claims["expires_in"]
	if !ok {
		return defaultTokenTTL, nil
	}
	delete(claims, "expires_in")
	var text string
	switch v := raw.(type) {
	case json.Number:
		text = v.String()
	case string:
		text = v
	default:
		return 0, errors.New("expires_in must be a number of seconds")
	}
	seconds, err := strconv.ParseInt(text, 10, 64)
	if err != nil || seconds <= 0 || time.Duration(seconds)*time.Second > maxTokenTTL {
		return 0, fmt.Errorf("expires_in must be whole seconds between 1 and %d", int64(maxTokenTTL/time.Second))
	}
	return time.Duration(seconds) * time.Second, nil
}
