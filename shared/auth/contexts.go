package auth

import "slices"

// ContextOrder lists authentication contexts (acr values) from the weakest
// to the strongest. A context satisfies one it equals or one listed before
// it: a login with a second factor meets a role that asks for a password
// only. Contexts not in the order satisfy only themselves.
type ContextOrder []string

// Satisfies reports whether the asserted context meets the required one;
// no requirement is always met.
func (o ContextOrder) Satisfies(asserted, required string) bool {
	if required == "" || asserted == required {
		return true
	}
	a, r := slices.Index(o, asserted), slices.Index(o, required)
	return a >= 0 && r >= 0 && a >= r
}

// InsufficientAuthentication refuses a caller whose authentication context
// is weaker than the operation needs (RFC 9470): the API answers 401 with
// error="insufficient_user_authentication" and the acr_values to ask for.
type InsufficientAuthentication struct {
	ACRValues string
}

func (e *InsufficientAuthentication) Error() string {
	return "a stronger authentication is required: " + e.ACRValues
}
