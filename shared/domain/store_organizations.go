package domain

import "context"

// OrganizationStore keeps the organizations super users name: one item per
// organization, all in one partition (there are hundreds, not millions).
type OrganizationStore interface {
	// CreateOrganization writes a new organization. KindConflict when its
	// GUID is taken.
	CreateOrganization(ctx context.Context, o Organization) error
	// RenameOrganization replaces the names of a stored organization.
	// KindNotFound when there is none.
	RenameOrganization(ctx context.Context, o Organization) error
	// ListOrganizations returns every stored organization, by GUID (one
	// Query). No domain error (none: empty).
	ListOrganizations(ctx context.Context) ([]Organization, error)
}

// AuditStore writes the audit entries of changes that are not
// memberships (roles, invitations, the registry, organizations): written
// after the change they record, so a failed write loses the entry, never
// the change. No domain error.
type AuditStore interface {
	AddAuditEntries(ctx context.Context, entries []AuditEntry) error
}
