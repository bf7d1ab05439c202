package service

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/edu-invite/invite/shared/auth"
	"github.com/edu-invite/invite/shared/domain"
)

// UserRoleProvisioningInput is the body of U8.
type UserRoleProvisioningInput struct {
	RoleIDs []int64
	// IntendedAuthority defaults to GUEST, as in the reference.
	IntendedAuthority      string
	Sub                    string
	Email                  string
	EduPersonPrincipalName string
	GivenName              string
	FamilyName             string
	Name                   string
	SchacHomeOrganization  string
	GuestRoleIncluded      bool
}

// ProvisionedUser is the user of U8 with all their memberships.
type ProvisionedUser struct {
	User      domain.User
	UserRoles []domain.UserRole
	Roles     map[int64]domain.Role
}

// ProvisionUserRoles is U8: it gives a person roles without an invitation,
// creating the user when no user has the sub. The caller must be allowed to
// provision users (super users, API tokens, institution admins) and to
// grant the authority on every role (the rules of inviting). Roles the user
// already holds are left as they are. The user, the memberships, their
// audit entries (ADD) and the SCIM deliveries (at each SP the user is
// created first, then added to each group) are written in one transaction,
// exactly as an acceptance.
func (s *Service) ProvisionUserRoles(ctx context.Context, p *auth.Principal, in UserRoleProvisioningInput) (ProvisionedUser, error) {
	if p == nil {
		return ProvisionedUser{}, domain.Unauthenticatedf("authentication required")
	}
	if !p.CanProvisionUsers() {
		return ProvisionedUser{}, domain.Forbiddenf("only institution admins, API tokens and super users provision users")
	}
	if len(in.RoleIDs) == 0 {
		return ProvisionedUser{}, domain.Invalidf("roleIdentifiers must name at least one role")
	}
	if err := checkTexts(line("sub", in.Sub), line("eduPersonPrincipalName", in.EduPersonPrincipalName), line("givenName", in.GivenName),
		line("familyName", in.FamilyName), line("name", in.Name), line("schacHomeOrganization", in.SchacHomeOrganization)); err != nil {
		return ProvisionedUser{}, err
	}
	if strings.TrimSpace(in.Email) == "" {
		return ProvisionedUser{}, domain.Invalidf("email is required")
	}
	email, err := normalizeEmail(in.Email)
	if err != nil {
		return ProvisionedUser{}, err
	}
	intended := domain.Guest
	if in.IntendedAuthority != "" {
		if intended, err = domain.ParseAuthority(in.IntendedAuthority); err != nil {
			return ProvisionedUser{}, err
		}
	}
	in.Email = email
	sub, schacHome, err := resolveSub(in)
	if err != nil {
		return ProvisionedUser{}, err
	}
	roles, _, err := s.rolesToInviteTo(ctx, p, in.RoleIDs, intended)
	if err != nil {
		return ProvisionedUser{}, err
	}

	now := s.now()
	user, err := s.Store.GetUserBySub(ctx, sub)
	isNew := domain.IsNotFound(err)
	existing := map[int64]domain.UserRole{}
	switch {
	case isNew: // its id is drawn once the grant is known to fit
		user = domain.User{Sub: sub, Email: email, EduPersonPrincipalName: strings.TrimSpace(in.EduPersonPrincipalName),
			GivenName: strings.TrimSpace(in.GivenName), FamilyName: strings.TrimSpace(in.FamilyName), Name: strings.TrimSpace(in.Name),
			SchacHomeOrganization: schacHome, OrganizationGUID: firstNonEmpty(p.OrganizationGUID, roles[0].OrganizationGUID),
			CreatedAt: now}
	case err != nil:
		return ProvisionedUser{}, err
	default:
		urs, err := s.Store.ListUserRolesOfUser(ctx, user.ID)
		if err != nil {
			return ProvisionedUser{}, err
		}
		for _, ur := range urs {
			existing[ur.RoleID] = ur
		}
	}

	result := ProvisionedUser{User: user, Roles: map[int64]domain.Role{}}
	g := pendingGrant{acc: domain.Acceptance{User: user, NewUser: isNew}}
	for _, role := range roles {
		result.Roles[role.ID] = role
		if _, held := existing[role.ID]; held {
			continue
		}
		ur := domain.UserRole{UserID: user.ID, RoleID: role.ID, Inviter: p.Name,
			EndDate: membershipEnd(domain.Invitation{}, role, now), CreatedAt: now, GuestRoleIncluded: in.GuestRoleIncluded,
			Authority: intended, Language: domain.English}
		g.acc.NewUserRoles = append(g.acc.NewUserRoles, ur)
		g.fresh = append(g.fresh, role)
		if ur.Provisioned() { // only guests reach the applications
			g.provisioned = append(g.provisioned, role)
		}
	}
	// Refused before anything is written, the user's id included.
	if err := s.checkGrantFits(ctx, p, g); err != nil {
		return ProvisionedUser{}, err
	}
	if isNew {
		id, err := s.Store.NextIDs(ctx, "user", 1)
		if err != nil {
			return ProvisionedUser{}, err
		}
		result.User.ID, g.acc.User.ID = id, id
		for i := range g.acc.NewUserRoles {
			g.acc.NewUserRoles[i].UserID = id
		}
	}
	var added []domain.UserRole
	if len(g.fresh) > 0 {
		acc, err := s.commitGrant(ctx, p, g)
		if err != nil {
			return ProvisionedUser{}, err
		}
		added = acc.NewUserRoles
		if !isNew {
			result.User.Version++
		}
	}
	if isNew {
		result.User.Version = 1
	}
	for _, ur := range existing {
		result.UserRoles = append(result.UserRoles, ur)
	}
	for _, ur := range added {
		ur.Version = 1
		result.UserRoles = append(result.UserRoles, ur)
	}
	slices.SortFunc(result.UserRoles, func(a, b domain.UserRole) int { return cmp.Compare(a.RoleID, b.RoleID) })
	for _, ur := range existing {
		if _, ok := result.Roles[ur.RoleID]; !ok {
			if role, err := s.Store.GetRole(ctx, ur.RoleID); err == nil {
				result.Roles[role.ID] = role
			}
		}
	}
	return result, nil
}

// resolveSub is the sub of a provisioned person: the given one, else derived
// as the reference does, urn:collab:person:<home organization>:<uid>, where
// the uid is the local part of the eppn (else of the e-mail address) and
// the home organization is schacHomeOrganization, else the domain of the
// eppn, else of the e-mail address. It also returns the home organization.
func resolveSub(in UserRoleProvisioningInput) (sub, schacHome string, err error) {
	schacHome = strings.ToLower(strings.TrimSpace(in.SchacHomeOrganization))
	uid := ""
	for _, addr := range []string{strings.TrimSpace(in.EduPersonPrincipalName), in.Email} {
		local, host, ok := strings.Cut(addr, "@")
		if !ok || local == "" || host == "" {
			continue
		}
		if uid == "" {
			uid = local
		}
		if schacHome == "" {
			schacHome = strings.ToLower(host)
		}
	}
	if sub = strings.TrimSpace(in.Sub); sub != "" {
		return sub, schacHome, nil
	}
	if uid == "" || schacHome == "" {
		return "", "", domain.Invalidf("cannot derive a sub: give sub, or an eppn or e-mail address of the form uid@domain")
	}
	return fmt.Sprintf("urn:collab:person:%s:%s", schacHome, uid), schacHome, nil
}
