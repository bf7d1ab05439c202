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

// CanInvite reports whether the caller may invite someone to a role with
// the intended authority: role managers of the organization always; others
// need at least INVITER on the role and may only grant a lower authority.
func (p *Principal) CanInvite(r domain.Role, intended domain.Authority) bool {
	if p == nil || !intended.Valid() {
		return false
	}
	if p.CanManageRole(r) && (p.SuperUser || !intended.AtLeast(domain.InstitutionAdmin)) {
		return true
	}
	own := p.Memberships[r.ID]
	return own.AtLeast(domain.Inviter) && own.Higher(intended)
}
