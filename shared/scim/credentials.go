package scim

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"log/slog"
)

// AuthMethod is how the client authenticates at an SP (spec 5.1).
type AuthMethod string

const (
	AuthBasic  AuthMethod = "basic"
	AuthBearer AuthMethod = "bearer"
)

const redacted = "[REDACTED]"

// Credentials authenticate the client at one SP. The value prints, formats,
// logs and marshals with its secrets redacted, so that a Target or
// Credentials passed to fmt, slog or encoding/json cannot leak them.
type Credentials struct {
	Method   AuthMethod
	Username string
	Password string
	Token    string
}

// authorization returns the Authorization header value.
func (c Credentials) authorization() (string, error) {
	switch c.Method {
	case AuthBasic:
		return "Basic " + base64.StdEncoding.EncodeToString([]byte(c.Username+":"+c.Password)), nil
	case AuthBearer:
		if c.Token == "" {
			return "", fmt.Errorf("scim: bearer credentials without a token")
		}
		return "Bearer " + c.Token, nil
	default:
		return "", fmt.Errorf("scim: unknown auth method %q", string(c.Method))
	}
}

// mask shows whether a secret is set without showing it.
func mask(secret string) string {
	if secret == "" {
		return ""
	}
	return redacted
}

// String implements fmt.Stringer (used by %v, %+v and %s).
func (c Credentials) String() string {
	return fmt.Sprintf("{Method:%s Username:%s Password:%s Token:%s}",
		c.Method, c.Username, mask(c.Password), mask(c.Token))
}

// GoString implements fmt.GoStringer (used by %#v).
func (c Credentials) GoString() string {
	return fmt.Sprintf("scim.Credentials{Method:%q, Username:%q, Password:%q, Token:%q}",
		string(c.Method), c.Username, mask(c.Password), mask(c.Token))
}

// LogValue implements slog.LogValuer.
func (c Credentials) LogValue() slog.Value {
	return slog.GroupValue(
		slog.String("method", string(c.Method)),
		slog.String("username", c.Username),
		slog.String("password", mask(c.Password)),
		slog.String("token", mask(c.Token)),
	)
}

// MarshalJSON redacts too: slog's JSON handler and ad-hoc debugging dumps go
// through encoding/json. Credentials are never sent to an SP as JSON.
func (c Credentials) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		Method   AuthMethod `json:"method"`
		Username string     `json:"username,omitempty"`
		Password string     `json:"password,omitempty"`
		Token    string     `json:"token,omitempty"`
	}{c.Method, c.Username, mask(c.Password), mask(c.Token)})
}

// Target is one SP: where its SCIM endpoint is and how to authenticate.
type Target struct {
	ID          string
	BaseURL     string
	Version     string // path segment such as "v1"; empty means "v1"
	Credentials Credentials
	// MaxPatchMembers bounds the member values of one PATCH request; larger
	// changes go in several requests (0 means DefaultMaxPatchMembers).
	MaxPatchMembers int
}

// DefaultMaxPatchMembers is the member values per PATCH when none is set:
// many SPs refuse or time out on larger bodies.
const DefaultMaxPatchMembers = 100
