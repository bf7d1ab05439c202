package service

import (
	"context"

	"github.com/edu-invite/invite/shared/config"
	"github.com/edu-invite/invite/shared/outbound"
	"github.com/edu-invite/invite/shared/scimprobe"
)

// RegistryStore keeps the registry's items (the table). Each write records
// its config.Change in the same transaction. Errors: domain NotFound for an
// absent item on update or delete, Conflict for an existing one on create.
type RegistryStore interface {
	config.Source
	LoadApplication(ctx context.Context, manageID string) (config.ApplicationDoc, bool, error)
	SaveApplication(ctx context.Context, a config.ApplicationDoc, create bool, ch config.Change) (config.ApplicationDoc, error)
	SaveConnection(ctx context.Context, p config.ProvisioningDoc, create bool, ch config.Change) error
	DeleteApplication(ctx context.Context, manageID string, ch config.Change) error
	DeleteConnection(ctx context.Context, id string, ch config.Change) error
	RegistryChanges(ctx context.Context, limit int) ([]config.Change, error)
}

// CredentialVault stores the credentials entered through the API, one
// secret per connection, and answers references to them.
type CredentialVault interface {
	// Store writes a connection's credential and returns its reference.
	Store(ctx context.Context, connectionID, field, value string) (string, error)
	// Delete removes a connection's secret (absent: no error).
	Delete(ctx context.Context, connectionID string) error
	// Managed reports whether ref is the connection's own secret.
	Managed(ref, connectionID string) bool
	// InVault reports whether ref points at any connection's secret.
	InVault(ref string) bool
}

// SecretResolver turns a secret reference into its value (for the
// connection test).
type SecretResolver interface {
	Resolve(ctx context.Context, ref string) (string, error)
}

// RegistryAdmin is what managing applications and SCIM connections needs.
// Invalidate (may be nil) drops this process's cached registry after a
// change, so that the change is seen here at once (other functions see it
// within config.DefaultRefresh).
type RegistryAdmin struct {
	Store      RegistryStore
	Vault      CredentialVault
	Secrets    SecretResolver
	Prober     *scimprobe.Prober
	Invalidate func()
	// Outbound is the address policy a connection's baseUrl and tokenUrl
	// must pass (the zero value: public https addresses only).
	Outbound outbound.Policy
	// ReferencePrefixes are the operator's secret reference prefixes a
	// connection's credential may use besides its own vault entry
	// (secrets.EnvConnectionReferences).
	ReferencePrefixes []string
}
