package httpapi

import (
	"github.com/edu-invite/invite/shared/domain"
	"github.com/edu-invite/invite/shared/service"
)

// UserJSON is a user on the wire. A signed-in person not yet
// known to the service has no id, no roles and no dates.
type UserJSON struct {
	ID *int64 `json:"id,omitempty"`
	UserAttributesJSON
	UserRoles        []UserRoleJSON   `json:"userRoles"`
	UserApplications []map[string]any `json:"userApplications"`
	Applications     []map[string]any `json:"applications"`
	Institution      map[string]any   `json:"institution,omitempty"`
}

func userJSON(u domain.User, known bool) UserJSON {
	out := UserJSON{UserAttributesJSON: userAttributesJSON(u),
		UserRoles: []UserRoleJSON{}, UserApplications: []map[string]any{}, Applications: []map[string]any{}}
	if known {
		id := u.ID
		out.ID = &id
	}
	return out
}

// userWithRolesJSON is a user with each membership and its role (otherUser, me).
// userApplications lists the applications of the user's roles.
func userWithRolesJSON(uwr service.UserWithRoles) UserJSON {
	out := userJSON(uwr.User, uwr.Known)
	seen := map[string]bool{}
	for _, ur := range uwr.UserRoles {
		role := uwr.Roles[ur.RoleID]
		out.UserRoles = append(out.UserRoles, userRoleJSON(ur, &role))
		for _, use := range role.ApplicationUsages {
			if seen[use.Application.ManageID] {
				continue
			}
			seen[use.Application.ManageID] = true
			out.UserApplications = append(out.UserApplications, map[string]any{"manageId": use.Application.ManageID,
				"manageType": use.Application.ManageType, "landingPage": use.LandingPage, "roleId": role.ID})
		}
	}
	return out
}

// UserSearchItemJSON is one user of a user search.
type UserSearchItemJSON struct {
	ID                    int64             `json:"id"`
	Name                  string            `json:"name"`
	Email                 string            `json:"email"`
	SchacHomeOrganization string            `json:"schacHomeOrganization"`
	CreatedAt             *string           `json:"createdAt"`
	LastActivity          *string           `json:"lastActivity"`
	RoleSummaries         []RoleSummaryJSON `json:"roleSummaries"`
}

// RoleSummaryJSON is one role of a user in a search result; id is the
// role's id, userRoleId the membership's (for an end-date update).
type RoleSummaryJSON struct {
	ID         int64            `json:"id"`
	UserRoleID int64            `json:"userRoleId"`
	RoleName   string           `json:"roleName"`
	Authority  domain.Authority `json:"authority"`
	EndDate    *string          `json:"endDate"`
}

func userSearchItemJSON(s service.UserSummary) UserSearchItemJSON {
	out := UserSearchItemJSON{ID: s.User.ID, Name: s.User.DisplayName(), Email: s.User.Email,
		SchacHomeOrganization: s.User.SchacHomeOrganization, CreatedAt: isoTime(s.User.CreatedAt),
		LastActivity: isoTime(s.User.LastActivity), RoleSummaries: make([]RoleSummaryJSON, 0, len(s.Roles))}
	for _, r := range s.Roles {
		out.RoleSummaries = append(out.RoleSummaries, RoleSummaryJSON{ID: r.UserRole.RoleID, UserRoleID: r.UserRole.ID,
			RoleName: r.RoleName, Authority: r.UserRole.Authority, EndDate: isoTimePtr(r.UserRole.EndDate)})
	}
	return out
}
