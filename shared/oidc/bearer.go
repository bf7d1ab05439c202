package oidc

import (
	"net/http"
	"strings"
)

// BearerToken returns the token of an "Authorization: Bearer <token>" header
// (RFC 6750 section 2.1; the scheme is case-insensitive). It reports false
// when there is no such header, when the header is repeated (ambiguous), when
// the scheme is not Bearer, or when the credential is not a token68 (RFC 9110),
// so junk never reaches the JWT parser.
func BearerToken(r *http.Request) (string, bool) {
	values := r.Header.Values("Authorization")
	if len(values) != 1 {
		return "", false
	}
	scheme, token, found := strings.Cut(strings.TrimSpace(values[0]), " ")
	if !found || !strings.EqualFold(scheme, "Bearer") {
		return "", false
	}
	token = strings.TrimLeft(token, " ")
	if !isToken68(token) {
		return "", false
	}
	return token, true
}

// isToken68 reports whether s is 1*( ALPHA / DIGIT / "-" / "." / "_" / "~" /
// "+" / "/" ) *"=".
func isToken68(s string) bool {
	body := strings.TrimRight(s, "=")
	if body == "" {
		return false
	}
	for i := 0; i < len(body); i++ {
		c := body[i]
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		case c == '-', c == '.', c == '_', c == '~', c == '+', c == '/':
		default:
			return false
		}
	}
	return true
}
