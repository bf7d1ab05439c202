package service

import (
	"context"
	"net/url"
	"strings"

	"github.com/edu-invite/invite/shared/config"
	"github.com/edu-invite/invite/shared/outbound"
	"github.com/edu-invite/invite/shared/secrets"
)

// A credential goes only where its owner sent it. Whoever may change a
// connection may not know its credential (an institution admin changing
// what a super user entered, or the reverse), so:
//   - changing where the credential goes (the SP's scheme, host or port,
//     the token URL, the username or the client id) needs the credential
//     again;
//   - a reference resolves only to the connection's own vault entry or
//     under a prefix the operator set, never to the process environment at
//     large or to another connection's secret;
//   - every address passes the operator's address policy (shared/outbound).

// secretAgain starts the problem of a kept credential whose destination
// changed; the console recognises it.
const secretAgain = "secret must be sent again"

// destinationChange names what of where the credential goes changed from
// old to updated, "" when nothing did.
func destinationChange(old, updated config.ProvisioningDoc) string {
	if origin(old.BaseURL) != origin(updated.BaseURL) {
		return "baseUrl's scheme, host or port"
	}
	switch strings.ToLower(updated.Auth.Method) {
	case "basic":
		if old.Auth.Username != updated.Auth.Username {
			return "auth.username"
		}
	case "oauth2":
		if tokenEndpoint(old.Auth.TokenURL) != tokenEndpoint(updated.Auth.TokenURL) {
			return "auth.tokenUrl"
		}
		if old.Auth.ClientID != updated.Auth.ClientID {
			return "auth.clientId"
		}
	}
	return ""
}

// origin is a URL's scheme, host and port as compared: lower case, the
// default port written out, no trailing dot.
func origin(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return raw
	}
	scheme := strings.ToLower(u.Scheme)
	port := u.Port()
	if port == "" {
		port = map[string]string{"http": "80", "https": "443"}[scheme]
	}
	return scheme + "://" + strings.TrimSuffix(strings.ToLower(u.Hostname()), ".") + ":" + port
}

// tokenEndpoint is a token URL as compared: its origin, path and query
// (the client secret is posted to exactly that address).
func tokenEndpoint(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return raw
	}
	return origin(raw) + u.EscapedPath() + "?" + u.RawQuery
}

func keptCredentialProblem(change string) string {
	return secretAgain + ": " + change + " changed, and a stored credential goes only to where it was entered for"
}

// referenceAllowed reports whether ref may hold the credential of the
// connection id: its own vault entry, or (not in the vault) under one of
// the operator's prefixes.
func (ra *RegistryAdmin) referenceAllowed(id, ref string) bool {
	if ra.Vault != nil {
		if ra.Vault.Managed(ref, id) {
			return true
		}
		if ra.Vault.InVault(ref) {
			return false
		}
	}
	return secrets.UnderPrefix(ref, ra.ReferencePrefixes)
}

// referenceProblem checks the reference in the connection's auth field;
// others maps the secret names other connections use to their ids.
func (ra *RegistryAdmin) referenceProblem(id, field, ref string, others map[string]string) string {
	switch {
	case ra.Vault != nil && ra.Vault.Managed(ref, id):
		return ""
	case ra.Vault != nil && ra.Vault.InVault(ref):
		return "auth." + field + " points at another connection's secret"
	case !secrets.UnderPrefix(ref, ra.ReferencePrefixes):
		return "auth." + field + " must be the connection's own secret or a reference under a prefix the operator allows (" +
			secrets.EnvConnectionReferences + "); send a credential itself as secret"
	case others[secretName(ref)] != "":
		return "auth." + field + " points at another connection's secret: each connection has its own"
	}
	return ""
}

// secretName is a reference without its version and JSON key.
func secretName(ref string) string {
	name, _, _ := strings.Cut(ref, "#")
	name, _, _ = strings.Cut(name, "?")
	return name
}

// referencesOf maps the secret names of the connections (but skip) to
// their ids.
func referencesOf(conns []config.ProvisioningDoc, skip func(id string) bool) map[string]string {
	out := map[string]string{}
	for _, c := range conns {
		if ref := c.Auth.SecretRef(); ref != "" && !skip(c.ID) {
			out[secretName(ref)] = c.ID
		}
	}
	return out
}

// addressProblems checks the connection's addresses against the operator's
// policy; an address that is no URL at all is config.ValidateConnection's
// to name.
func (ra *RegistryAdmin) addressProblems(ctx context.Context, doc config.ProvisioningDoc, problems []string) []string {
	named := func(field string) bool {
		for _, p := range problems {
			if strings.HasPrefix(p, field+" ") {
				return true
			}
		}
		return false
	}
	var out []string
	if !named("baseUrl") {
		if err := ra.Outbound.CheckURL(ctx, doc.BaseURL); err != nil {
			out = append(out, "baseUrl is not allowed: "+err.Error())
		}
	}
	if strings.EqualFold(doc.Auth.Method, "oauth2") && !named("auth.tokenUrl") {
		if err := ra.Outbound.CheckURL(ctx, doc.Auth.TokenURL); err != nil {
			out = append(out, "auth.tokenUrl is not allowed: "+err.Error())
		}
	}
	return out
}

// addressRefusal is the connection test's report of a stored address the
// policy refuses (configured before the policy, or since refused).
func addressRefusal(ctx context.Context, p outbound.Policy, t config.Target) error {
	if err := p.CheckURL(ctx, t.BaseURL); err != nil {
		return err
	}
	if t.Auth.Method == "oauth2" {
		return p.CheckURL(ctx, t.Auth.TokenURL)
	}
	return nil
}
