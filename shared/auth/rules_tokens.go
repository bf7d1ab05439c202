package auth

import "github.com/edu-invite/invite/shared/domain"

// isInstitutionAdmin reports whether the caller is a person who is an
// institution admin of an organization.
func (p *Principal) isInstitutionAdmin() bool {
	return p != nil && p.Kind == KindPerson && p.User != nil && p.User.InstitutionAdmin && p.OrganizationGUID != ""
}

// CanAdministerTokens reports whether the caller may generate, create, list
// and delete API tokens at all: super users (people and super-user tokens)
// and institution admins. Organization tokens may not mint tokens: a leaked
// token must not be able to make itself permanent.
func (p *Principal) CanAdministerTokens() bool {
	return p != nil && (p.SuperUser || p.isInstitutionAdmin())
}

// CanManageToken reports whether the caller may see or delete a token:
// super users every token, institution admins the organization tokens of
// their own organization (never a super-user token).
func (p *Principal) CanManageToken(t domain.APIToken) bool {
	switch {
	case p == nil:
		return false
	case p.SuperUser:
		return true
	default:
		return p.isInstitutionAdmin() && !t.SuperUserToken && t.OrganizationGUID == p.OrganizationGUID
	}
}

// CanSearchAudit reports whether the caller may read the audit entries of
// a role: whoever may manage the role (super users, institution admins and
// tokens of its organization, its managers and application managers).
// Without a role (roleID 0) only super users may search.
func (p *Principal) CanSearchAudit(role *domain.Role) bool {
	if p == nil {
		return false
	}
	if role == nil {
		return p.SuperUser
	}
	return p.CanManageRole(*role)
}
