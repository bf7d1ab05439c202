package auth

import "github.com/edu-invite/invite/shared/domain"

// CanSeeMembers reports whether the caller may list the members of a role
// whoever may manage the role, and its inviters, who need to see
// whom they invited (the reference requires INVITER on the role).
func (p *Principal) CanSeeMembers(r domain.Role) bool {
	return p.CanManageRole(r) || (p != nil && p.Memberships[r.ID].AtLeast(domain.Inviter))
}

// CanProvisionUsers reports whether the caller may create users and give
// them roles without an invitation: super users, API tokens and
// institution admins of an organization, as in the reference. Which roles
// and authority they may grant is CanInvite's.
func (p *Principal) CanProvisionUsers() bool {
	switch {
	case p == nil:
		return false
	case p.SuperUser, p.Kind == KindAPIToken:
		return true
	default:
		return p.User != nil && p.User.InstitutionAdmin && p.OrganizationGUID != ""
	}
}

// CanRemoveMembership reports whether the caller may take the removed
// authority of a membership away: anyone their own membership, otherwise
// whoever could have granted that authority on the role (so inviters
// remove only memberships below their own authority, managers and
// administrators of the organization anything below INSTITUTION_ADMIN).
func (p *Principal) CanRemoveMembership(r domain.Role, ur domain.UserRole, removed domain.Authority) bool {
	if p == nil {
		return false
	}
	if p.User != nil && p.User.ID == ur.UserID {
		return true
	}
	return p.CanInvite(r, removed)
}
