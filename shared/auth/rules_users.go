package auth

import "github.com/edu-invite/invite/shared/domain"

// actsForWholeOrganization reports whether the caller acts for a whole
// organization: an institution admin, or a program (API token, machine
// caller) of the organization.
func (p *Principal) actsForWholeOrganization() bool {
	return p != nil && p.OrganizationGUID != "" && (p.IsProgram() || (p.User != nil && p.User.InstitutionAdmin))
}

// CanSeeUser reports whether the caller may read a user with its roles
// super users; the user themself; institution admins and
// organization tokens when the user holds a role of their organization or
// belongs to it; managers (MANAGER or higher) of a role the user holds.
// roles are the roles the user holds.
func (p *Principal) CanSeeUser(u domain.User, roles []domain.Role) bool {
	switch {
	case p == nil:
		return false
	case p.SuperUser:
		return true
	case p.User != nil && p.User.ID == u.ID:
		return true
	case p.actsForWholeOrganization() && u.OrganizationGUID == p.OrganizationGUID:
		return true
	}
	for _, r := range roles {
		if p.actsForWholeOrganization() && r.OrganizationGUID == p.OrganizationGUID {
			return true
		}
		if p.Memberships[r.ID].AtLeast(domain.Manager) {
			return true
		}
	}
	return false
}

// UserSearchScope says which users the caller may search: every
// user (all) for super users, their organization's users for institution
// admins and organization tokens; ok is false for everyone else.
func (p *Principal) UserSearchScope() (organizationGUID string, all, ok bool) {
	switch {
	case p == nil:
		return "", false, false
	case p.SuperUser:
		return "", true, true
	case p.actsForWholeOrganization():
		return p.OrganizationGUID, false, true
	}
	return "", false, false
}
