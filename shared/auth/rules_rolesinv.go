package auth

import "github.com/edu-invite/invite/shared/domain"

// MayChangeRoleApplications reports whether a caller who may manage a role
// may also change its applications: super users, API tokens and
// institution admins of its organization, and application managers of the
// role; not those whose only right is MANAGER on it (as in the reference).
func MayChangeRoleApplications(p *Principal, r domain.Role) bool {
	if p == nil || !p.CanManageRole(r) {
		return false
	}
	if p.SuperUser || (p.OrganizationGUID != "" && p.OrganizationGUID == r.OrganizationGUID &&
		(p.IsProgram() || (p.User != nil && p.User.InstitutionAdmin))) {
		return true
	}
	return p.Memberships[r.ID].AtLeast(domain.ApplicationManager)
}

// RoleListScope is which roles a caller sees in the role list.
type RoleListScope int

const (
	// RolesNone: the caller may not list roles.
	RolesNone RoleListScope = iota
	// RolesAll: super users (people and tokens) see every role.
	RolesAll
	// RolesOfOrganization: institution admins and programs of an
	// organization (API tokens, machine callers) see
	// the roles of their organization, plus (admins) the roles they hold
	// at least INVITER on.
	RolesOfOrganization
	// RolesHeld: other people see the roles they hold at least INVITER on.
	RolesHeld
)

// RoleListScopeOf decides the scope of the role list for a caller. The reference lets
// only institution admins and super users list; people who invite to or
// manage a role also see those roles here (they may read each by id), and
// someone who holds no role above GUEST is refused.
func RoleListScopeOf(p *Principal) RoleListScope {
	switch {
	case p == nil:
		return RolesNone
	case p.SuperUser:
		return RolesAll
	case p.OrganizationGUID != "" && (p.IsProgram() || (p.User != nil && p.User.InstitutionAdmin)):
		return RolesOfOrganization
	}
	for _, a := range p.Memberships {
		if a.AtLeast(domain.Inviter) {
			return RolesHeld
		}
	}
	return RolesNone
}

// CanSeeRole reports whether a role is in a caller's role list (and roles-of-an-application) scope.
func CanSeeRole(p *Principal, r domain.Role) bool {
	switch RoleListScopeOf(p) {
	case RolesAll:
		return true
	case RolesOfOrganization:
		return r.OrganizationGUID == p.OrganizationGUID || p.Memberships[r.ID].AtLeast(domain.Inviter)
	case RolesHeld:
		return p.Memberships[r.ID].AtLeast(domain.Inviter)
	}
	return false
}

// CanManageInvitation reports whether a caller may resend or delete an
// invitation: whoever may invite its intended authority to each of its
// roles (the reference's rule for both).
func CanManageInvitation(p *Principal, inv domain.Invitation, roles []domain.Role) bool {
	if p == nil {
		return false
	}
	if len(roles) == 0 {
		// Invitations without a role (institution admins, super users)
		// are for super users, or admins of the same organization.
		return p.SuperUser || (p.OrganizationGUID != "" && p.OrganizationGUID == inv.OrganizationGUID &&
			inv.IntendedAuthority != domain.SuperUser && (p.IsProgram() || (p.User != nil && p.User.InstitutionAdmin)))
	}
	for _, r := range roles {
		if !p.CanInvite(r, inv.IntendedAuthority) {
			return false
		}
	}
	return true
}
