package secrets

import (
	"context"
	"errors"
	"fmt"
	"strings"
)

// EnvConnectionReferences names the variable of the reference prefixes an
// operator opens to SCIM connections (ParseReferencePrefixes).
const EnvConnectionReferences = "CONNECTION_SECRET_REFERENCES"

// DefaultConnectionReferences is EnvConnectionReferences' value when it is
// unset: the secrets operators keep for SPs, which the CDK stack lets the
// provisioning functions read (invite/sp/<connection id>).
const DefaultConnectionReferences = "secretsmanager:invite/sp/"

// Scope is where a SCIM connection's credential may come from: the
// connection's own secret in the vault, or a reference under a prefix the
// operator set. Never the process environment at large (it holds the
// service's own credentials) and never another connection's secret: a
// connection test or delivery sends the value to the connection's address,
// which an institution admin chooses.
type Scope struct {
	// VaultPrefix is the vault's name prefix ("" = DefaultConnectionPrefix).
	VaultPrefix string
	// Prefixes are the operator's reference prefixes, such as
	// "secretsmanager:scim-external/" or "env:SCIM_SP_".
	Prefixes []string
}

// ErrReferenceNotAllowed is a connection's reference outside its Scope.
var ErrReferenceNotAllowed = errors.New("the credential's reference is neither the connection's own secret nor under a prefix the operator allows (" + EnvConnectionReferences + ")")

// Permits reports whether ref may hold the credential of the connection.
func (s Scope) Permits(connectionID, ref string) bool {
	v := &Vault{Prefix: s.VaultPrefix}
	if v.Managed(ref, connectionID) {
		return true
	}
	return !v.InVault(ref) && UnderPrefix(ref, s.Prefixes)
}

// UnderPrefix reports whether the secret ref names (without its version
// and JSON key) starts with one of prefixes.
func UnderPrefix(ref string, prefixes []string) bool {
	name, _, _ := strings.Cut(ref, "#")
	name, _, _ = strings.Cut(name, "?")
	for _, p := range prefixes {
		if p != "" && strings.HasPrefix(name, p) {
			return true
		}
	}
	return false
}

// ParseReferencePrefixes reads EnvConnectionReferences' value: prefixes
// separated by commas or spaces, each "secretsmanager:" or "env:" and at
// least one more character, so that no value opens a whole store.
func ParseReferencePrefixes(s string) ([]string, error) {
	var out []string
	for _, p := range strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ' ' || r == '\t' || r == '\n' }) {
		rest, ok := strings.CutPrefix(p, "secretsmanager:")
		if !ok {
			rest, ok = strings.CutPrefix(p, "env:")
		}
		if !ok || rest == "" || strings.ContainsAny(rest, "?#") {
			return nil, fmt.Errorf("%s: %q must be secretsmanager:<name prefix> or env:<variable prefix>", EnvConnectionReferences, p)
		}
		out = append(out, p)
	}
	return out, nil
}

// ConnectionSecrets resolves SCIM connections' credentials within a Scope.
// Its errors name no secret: they reach people who may not know it.
type ConnectionSecrets struct {
	Resolver *Resolver
	Scope    Scope
}

// CredentialError is a credential that cannot be read. Its message names
// neither the secret nor the store's answer; Unwrap gives both to a log.
type CredentialError struct{ Cause error }

func (e *CredentialError) Error() string {
	return "the connection's credential cannot be read (the secret is missing, empty or not readable by the service)"
}
func (e *CredentialError) Unwrap() error { return e.Cause }

// Resolve returns the credential of connection connectionID that ref
// points at, if the Scope permits ref.
func (c ConnectionSecrets) Resolve(ctx context.Context, connectionID, ref string) (string, error) {
	return c.resolve(ctx, connectionID, ref, c.Resolver.Resolve)
}

// ResolveFresh is Resolve past the cache.
func (c ConnectionSecrets) ResolveFresh(ctx context.Context, connectionID, ref string) (string, error) {
	return c.resolve(ctx, connectionID, ref, c.Resolver.ResolveFresh)
}

func (c ConnectionSecrets) resolve(ctx context.Context, id, ref string, resolve func(context.Context, string) (string, error)) (string, error) {
	if !c.Scope.Permits(id, ref) {
		return "", ErrReferenceNotAllowed
	}
	v, err := resolve(ctx, ref)
	if err != nil {
		return "", &CredentialError{Cause: err}
	}
	return v, nil
}
