package service

import (
	"context"

	"github.com/edu-invite/invite/shared/domain"
)

// An organization's user search answers from the organization index (the
// store's UserOrganization items), which follows the roles' organizations
// member by member after a role moves (RoleMoveBudget, the role move
// job). The role item is the truth: the move changes it in one
// transaction. So an organization-scoped page is checked against the
// page's roles as read now, and what another organization holds is
// missing from it:
//
//   - a user's role summaries keep only the roles of the organization
//     (never a role of another organization, moved or not);
//   - a user who holds no role of the organization now and is not its
//     institution admin (a member of a role that moved away, not carried
//     yet) is left out of the page.
//
// While a move's job runs, the old organization's page may hold fewer
// than its size and its total still counts the members not carried yet;
// the new organization's listing gains them as the job carries them.

// summariesInScope is a page of found users with their role summaries,
// for an organization's search (organizationGUID) or every user's (""):
// the memberships (the users' summaries, else a Query each) and one
// BatchGetItem of their roles.
func (s *Service) summariesInScope(ctx context.Context, organizationGUID string, found []domain.FoundUser) ([]UserSummary, error) {
	perUser, err := s.userRolesOfUsers(ctx, found)
	if err != nil {
		return nil, err
	}
	var pageUserRoles []domain.UserRole
	for _, urs := range perUser {
		pageUserRoles = append(pageUserRoles, urs...)
	}
	roles, err := s.rolesOf(ctx, pageUserRoles)
	if err != nil {
		return nil, err
	}
	out := make([]UserSummary, 0, len(found))
	for i, f := range found {
		sum := UserSummary{User: f.User, Roles: []RoleSummary{}}
		for _, ur := range perUser[i] {
			r, ok := roles[ur.RoleID]
			if ok && (organizationGUID == "" || r.OrganizationGUID == organizationGUID) {
				sum.Roles = append(sum.Roles, RoleSummary{UserRole: ur, RoleName: r.Name})
			}
		}
		admin := f.User.InstitutionAdmin && f.User.OrganizationGUID == organizationGUID
		if organizationGUID != "" && len(sum.Roles) == 0 && !admin {
			continue
		}
		out = append(out, sum)
	}
	return out, nil
}
