package config

import "github.com/edu-invite/invite/shared/domain"

// Lookup is the registry as its consumers (service, provisioner, API) see
// it: the applications and their SCIM targets. *Registry (an immutable
// snapshot) and *Live (the table-backed registry with its cache) are both
// one. None of the methods fails: a registry that cannot be read answers
// from its last snapshot.
type Lookup interface {
	// Applications lists every application.
	Applications() []domain.Application
	// Application finds an application by manage id.
	Application(manageID string) (domain.Application, bool)
	// Target finds a SCIM target (connection) with how to reach it.
	Target(id string) (Target, bool)
	// ServiceProvider finds a SCIM target's domain settings.
	ServiceProvider(id string) (domain.ServiceProvider, bool)
	// TargetIDs lists the SCIM targets.
	TargetIDs() []string
	// SPsOfRole returns the SCIM targets of a role's applications, each once.
	SPsOfRole(role domain.Role) []domain.ServiceProvider
	// ProvisioningMetadata describes a SCIM target for the metadata lookup.
	ProvisioningMetadata(id string) (map[string]any, bool)
}

var (
	_ Lookup = (*Registry)(nil)
	_ Lookup = (*Live)(nil)
)
