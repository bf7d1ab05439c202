package auth

import "github.com/edu-invite/invite/shared/domain"

// CanManageRole reports whether the caller may change or delete a role:
// super users anywhere, API tokens and institution admins within their own
// organization, managers of the role itself.
func (p *Principal) CanManageRole(r domain.Role) bool {
	switch {
	case p == nil:
		return false
	case p.SuperUser:
		return true
	case p.OrganizationGUID != "" && r.OrganizationGUID == p.OrganizationGUID &&
		(p.actsForOrganization() || (p.User != nil && p.User.InstitutionAdmin)):
		return true
	default:
		return p.Memberships[r.ID].AtLeast(domain.Manager)
	}
}

// CanCreateRoleIn reports whether the caller may create a role in an organization.
func (p *Principal) CanCreateRoleIn(organizationGUID string) bool {
	switch {
	case p == nil:
		return false
	case p.SuperUser:
		return true
	default:
		return p.OrganizationGUID != "" && p.OrganizationGUID == organizationGUID &&
			(p.actsForOrganization() || (p.User != nil && p.User.InstitutionAdmin))
	}
}

// CanInvite reports whether the caller may grant the intended authority on
// a role by its own authority over that role: the ladder of MayGrant
// (rules_grant.go), without the shared-application rule.
func (p *Principal) CanInvite(r domain.Role, intended domain.Authority) bool {
	return MayGrant(p, r, intended, nil)
}
