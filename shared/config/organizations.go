package config

import "github.com/edu-invite/invite/shared/domain"

// Organizations lists the organizations of the registry's applications,
// each once, by name.
func (r *Registry) Organizations() []domain.Organization {
	return domain.OrganizationsOf(r.applications)
}

// Organization finds an organization of the registry by GUID; an unknown
// GUID is an organization named by its GUID (ok false).
func (r *Registry) Organization(guid string) (domain.Organization, bool) {
	return domain.OrganizationOf(r.Organizations(), guid)
}
