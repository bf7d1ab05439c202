package auth

import (
	"slices"

	"github.com/edu-invite/invite/shared/domain"
)

// The authority ladder: what a caller may grant, in every invitation path
// (REST and internal invitation APIs, user-role provisioning, CRM, and the
// console through shared/service), and what an invitation may still grant
// when it is accepted.
//
//   - super users grant anything;
//   - institution admins and programs (API tokens, machine callers) of a
//     role's organization grant up to APPLICATION_MANAGER on it;
//   - an APPLICATION_MANAGER or MANAGER of a role grants up to MANAGER on it
//     (managers invite managers to their own role, issue 18 item 6);
//   - an INVITER of a role grants GUEST on it;
//   - a MANAGER (or higher) of a role that shares an application with
//     another role of the same organization invites guests to that other
//     role: for that role they act as its INVITER. An application shared
//     across organizations (a platform application) opens nothing: the
//     organization is the boundary;
//   - nobody else grants anything.

// GrantingAuthority is the authority a caller holds over role r for
// granting it: the first rule above that applies, "" for none. managed
// are roles the caller holds MANAGER or higher on, with their applications
// (for the shared-application rule); nil skips that rule.
func GrantingAuthority(p *Principal, r domain.Role, managed []domain.Role) domain.Authority {
	switch {
	case p == nil:
		return ""
	case p.SuperUser:
		return domain.SuperUser
	case p.OrganizationGUID != "" && r.OrganizationGUID == p.OrganizationGUID &&
		(p.actsForOrganization() || (p.User != nil && p.User.InstitutionAdmin)):
		return domain.InstitutionAdmin
	}
	own := p.Memberships[r.ID]
	if !own.Valid() {
		own = ""
	}
	if !own.AtLeast(domain.Inviter) && managesSharedApplication(p, r, managed) {
		return domain.Inviter
	}
	return own
}

// managesSharedApplication reports whether the caller holds MANAGER or
// higher on another role of r's organization that shares an application
// with r. Roles without an organization share nothing.
func managesSharedApplication(p *Principal, r domain.Role, managed []domain.Role) bool {
	if r.OrganizationGUID == "" {
		return false
	}
	apps := r.ManageIDs()
	for _, m := range managed {
		if m.ID == r.ID || m.OrganizationGUID != r.OrganizationGUID || !p.Memberships[m.ID].AtLeast(domain.Manager) {
			continue
		}
		for _, id := range m.ManageIDs() {
			if slices.Contains(apps, id) {
				return true
			}
		}
	}
	return false
}

// AuthorityMayGrant reports whether a holder of an authority over a role
// may grant intended on it.
func AuthorityMayGrant(holder, intended domain.Authority) bool {
	if !intended.Valid() {
		return false
	}
	switch holder {
	case domain.SuperUser:
		return true
	case domain.InstitutionAdmin:
		return !intended.AtLeast(domain.InstitutionAdmin)
	case domain.ApplicationManager, domain.Manager:
		return !intended.Higher(domain.Manager)
	case domain.Inviter:
		return intended == domain.Guest
	}
	return false
}

// MayGrant reports whether the caller may grant intended on role r.
func MayGrant(p *Principal, r domain.Role, intended domain.Authority, managed []domain.Role) bool {
	return AuthorityMayGrant(GrantingAuthority(p, r, managed), intended)
}

// InviterAuthority is what an invitation to roles records of its inviter:
// the lowest granting authority over its roles, so that acceptance can
// check the invitation against it (AcceptanceWithinInviterAuthority).
// Without roles it is the caller's organization-wide authority: SUPER_USER,
// INSTITUTION_ADMIN (admins and programs of an organization) or none.
func InviterAuthority(p *Principal, roles []domain.Role, managed []domain.Role) domain.Authority {
	if p == nil {
		return ""
	}
	if len(roles) == 0 {
		switch {
		case p.SuperUser:
			return domain.SuperUser
		case p.OrganizationGUID != "" && (p.actsForOrganization() || (p.User != nil && p.User.InstitutionAdmin)):
			return domain.InstitutionAdmin
		}
		return ""
	}
	lowest := domain.SuperUser
	for _, r := range roles {
		if a := GrantingAuthority(p, r, managed); !a.AtLeast(lowest) {
			lowest = a
		}
	}
	return lowest
}

// CRMInviterAuthority is what a CRM invitation records: CRM systems invite
// guests only.
const CRMInviterAuthority = domain.Inviter

// LegacyInviterAuthority stands for the inviter of an invitation created
// before invitations recorded their inviter's authority: at most MANAGER
// can be accepted from it, which closes the climb to APPLICATION_MANAGER
// and INSTITUTION_ADMIN that such invitations allowed.
const LegacyInviterAuthority = domain.Manager

// AcceptanceWithinInviterAuthority reports whether accepting an invitation
// grants no more than its inviter could grant when inviting. An invitation
// without roles (an institution admin or super user invitation) needs an
// inviter of at least the intended authority; with roles, the ladder above.
func AcceptanceWithinInviterAuthority(inv domain.Invitation) bool {
	holder := inv.InviterAuthority
	if holder == "" {
		holder = LegacyInviterAuthority
	}
	if len(inv.RoleIDs) == 0 && inv.IntendedAuthority.AtLeast(domain.InstitutionAdmin) {
		return holder == domain.SuperUser || (holder == domain.InstitutionAdmin && inv.IntendedAuthority == domain.InstitutionAdmin)
	}
	return AuthorityMayGrant(holder, inv.IntendedAuthority)
}
