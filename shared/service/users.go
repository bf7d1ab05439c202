package service

import (
	"context"
	"errors"
	"slices"
	"sync"

	"github.com/edu-invite/invite/shared/auth"
	"github.com/edu-invite/invite/shared/domain"
)

// UserWithRoles is a user with its memberships and their roles (U3, U4).
// Known is false for a signed-in person the service does not know yet: the
// user then holds only the claims of the login.
type UserWithRoles struct {
	User      domain.User
	Known     bool
	UserRoles []domain.UserRole
	Roles     map[int64]domain.Role
}

// Me is U4: the calling person with their roles. A person not yet known to
// the service gets their claims back, not an error. An API token gets the
// user the reference makes of a token: named as the token, an institution
// admin of the token's organization or a super user, with no roles and no
// id (tokens act as themselves here, not as the person who created them).
func (s *Service) Me(ctx context.Context, p *auth.Principal) (UserWithRoles, error) {
	switch {
	case p == nil:
		return UserWithRoles{}, domain.Unauthenticatedf("authentication required")
	case p.Kind == auth.KindAPIToken:
		return UserWithRoles{User: tokenUser(p), Roles: map[int64]domain.Role{}}, nil
	case p.Person == nil:
		return UserWithRoles{}, domain.Forbiddenf("a machine caller has no user")
	case p.User == nil:
		u := userFromClaims(*p.Person)
		u.SuperUser = p.SuperUser // named by configuration (SUPER_USERS)
		return UserWithRoles{User: u, Roles: map[int64]domain.Role{}}, nil
	}
	uwr, err := s.userWithRoles(ctx, p.User.ID)
	// The caller sees themselves as the rules see them: a super user named
	// by configuration is one here too, though the stored user is not.
	uwr.User.SuperUser = uwr.User.SuperUser || p.SuperUser
	return uwr, err
}

// tokenUser is the user an API token acts as (users/me).
func tokenUser(p *auth.Principal) domain.User {
	return domain.User{Name: p.Name, SuperUser: p.SuperUser, OrganizationGUID: p.OrganizationGUID,
		InstitutionAdmin: p.OrganizationGUID != ""}
}

func userFromClaims(c auth.Person) domain.User {
	return domain.User{Sub: c.Sub, EduPersonPrincipalName: c.EduPersonPrincipalName, SchacHomeOrganization: c.SchacHomeOrganization,
		Email: c.Email, GivenName: c.GivenName, FamilyName: c.FamilyName, Name: c.Name, SubjectID: c.SubjectID, UID: c.UID, FedID: c.FedID}
}

// OtherUser is U3: a user with roles by id, for whom auth.CanSeeUser allows.
func (s *Service) OtherUser(ctx context.Context, p *auth.Principal, userID int64) (UserWithRoles, error) {
	if p == nil {
		return UserWithRoles{}, domain.Unauthenticatedf("authentication required")
	}
	uwr, err := s.userWithRoles(ctx, userID)
	if err != nil {
		return UserWithRoles{}, err
	}
	roles := make([]domain.Role, 0, len(uwr.Roles))
	for _, r := range uwr.Roles {
		roles = append(roles, r)
	}
	if !p.CanSeeUser(uwr.User, roles) {
		return UserWithRoles{}, s.refuseUser(ctx, p, uwr.User, roles, domain.Forbiddenf("no access to user %d", userID))
	}
	return uwr, nil
}

// userWithRoles reads a user, its memberships and their roles: one GetItem,
// one Query and BatchGetItems of the roles.
func (s *Service) userWithRoles(ctx context.Context, userID int64) (UserWithRoles, error) {
	u, err := s.Store.GetUser(ctx, userID)
	if err != nil {
		return UserWithRoles{}, err
	}
	urs, err := s.Store.ListUserRolesOfUser(ctx, userID)
	if err != nil {
		return UserWithRoles{}, err
	}
	roles, err := s.rolesOf(ctx, urs)
	if err != nil {
		return UserWithRoles{}, err
	}
	// A membership whose role was just deleted is left out until the role
	// deletion removes it.
	kept := urs[:0]
	for _, ur := range urs {
		if _, ok := roles[ur.RoleID]; ok {
			kept = append(kept, ur)
		}
	}
	return UserWithRoles{User: u, Known: true, UserRoles: kept, Roles: roles}, nil
}

// rolesOf reads the roles of memberships, by id; deleted roles are absent.
func (s *Service) rolesOf(ctx context.Context, urs []domain.UserRole) (map[int64]domain.Role, error) {
	ids := make([]int64, 0, len(urs))
	seen := map[int64]bool{}
	for _, ur := range urs {
		if !seen[ur.RoleID] {
			seen[ur.RoleID] = true
			ids = append(ids, ur.RoleID)
		}
	}
	out := make(map[int64]domain.Role, len(ids))
	if len(ids) == 0 {
		return out, nil
	}
	roles, err := s.Store.GetRoles(ctx, ids)
	if err != nil {
		return nil, err
	}
	for _, r := range roles {
		out[r.ID] = r
	}
	return out, nil
}

// InstitutionAdminsOfRole is U5: the institution admins of the role's
// organization, for whoever may manage the role.
func (s *Service) InstitutionAdminsOfRole(ctx context.Context, p *auth.Principal, roleID int64) ([]domain.User, error) {
	if p == nil {
		return nil, domain.Unauthenticatedf("authentication required")
	}
	role, err := s.Store.GetRole(ctx, roleID)
	if err != nil {
		return nil, err
	}
	if !p.CanManageRole(role) {
		return nil, s.refuseRole(ctx, p, role, domain.Forbiddenf("no access to role %d", roleID))
	}
	return s.Store.ListInstitutionAdmins(ctx, role.OrganizationGUID)
}

// UserSummary is one item of a user search (spec 2.9): the user and a
// summary of each of its roles.
type UserSummary struct {
	User  domain.User
	Roles []RoleSummary
}

// RoleSummary is one membership of a user in a search result.
type RoleSummary struct {
	UserRole domain.UserRole
	RoleName string
}

// SearchUsers is U1 and U2: super users search every user; institution
// admins and organization tokens the users of their organization (holding
// a role of it, or its institution admins). A page costs the store's
// bounded search (its user items carry their memberships' summary) and
// one BatchGetItem of the roles' names; only users whose item has no
// trusted summary (older data, very many roles) cost a Query each.
func (s *Service) SearchUsers(ctx context.Context, p *auth.Principal, page domain.PageRequest) (domain.Page[UserSummary], error) {
	if p == nil {
		return domain.Page[UserSummary]{}, domain.Unauthenticatedf("authentication required")
	}
	org, all, ok := p.UserSearchScope()
	if !ok {
		return domain.Page[UserSummary]{}, domain.Forbiddenf("only super users, institution admins and organization tokens search users")
	}
	q := domain.UserSearch{Page: page}
	if slices.Contains(UserSorts, page.Sort) {
		q.Page.Sort, q.Page.Descending = "name", false // the store's order; sorted below
	}
	if !all {
		q.OrganizationGUID = org
	}
	found, err := s.Store.SearchUsersWithRoles(ctx, q)
	if err != nil {
		return domain.Page[UserSummary]{}, err
	}
	items, err := s.summariesInScope(ctx, q.OrganizationGUID, found.Items)
	if err != nil {
		return domain.Page[UserSummary]{}, err
	}
	out := domain.Page[UserSummary]{Total: found.Total, Items: items}
	sortUserSummaries(out.Items, page.Sort, page.Descending)
	return out, nil
}

// userRolesOfUsers are the memberships of a page of users: their
// summaries when known, else one Query per user (each user's memberships
// are its own partition), 16 at a time, so that a page waits for a few
// round trips instead of one per user.
func (s *Service) userRolesOfUsers(ctx context.Context, users []domain.FoundUser) ([][]domain.UserRole, error) {
	perUser := make([][]domain.UserRole, len(users))
	errs := make([]error, len(users))
	slots := make(chan struct{}, 16) // a page is at most 100 users
	var wg sync.WaitGroup
	for i, f := range users {
		if f.UserRolesKnown {
			perUser[i] = f.UserRoles
			continue
		}
		u := f.User
		wg.Add(1)
		slots <- struct{}{}
		go func() {
			defer func() { <-slots; wg.Done() }()
			perUser[i], errs[i] = s.Store.ListUserRolesOfUser(ctx, u.ID)
		}()
	}
	wg.Wait()
	return perUser, errors.Join(errs...)
}
