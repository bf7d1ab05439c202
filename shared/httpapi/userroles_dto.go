package httpapi

import (
	"github.com/edu-invite/invite/shared/domain"
	"github.com/edu-invite/invite/shared/service"
)

// UserAttributesJSON are the attributes of a User on the wire,
// shared by every answer that carries a user.
type UserAttributesJSON struct {
	Sub                           string  `json:"sub"`
	SuperUser                     bool    `json:"superUser"`
	EduPersonPrincipalName        string  `json:"eduPersonPrincipalName,omitempty"`
	GivenName                     string  `json:"givenName,omitempty"`
	FamilyName                    string  `json:"familyName,omitempty"`
	MiddleName                    string  `json:"middleName,omitempty"`
	Name                          string  `json:"name,omitempty"`
	SubjectID                     string  `json:"subjectId,omitempty"`
	FedID                         string  `json:"fedId,omitempty"`
	UID                           string  `json:"uid,omitempty"`
	SchacHomeOrganization         string  `json:"schacHomeOrganization,omitempty"`
	OrganizationGUID              string  `json:"organizationGUID,omitempty"`
	InstitutionAdmin              bool    `json:"institutionAdmin"`
	InstitutionAdminByInvite      bool    `json:"institutionAdminByInvite"`
	Email                         string  `json:"email,omitempty"`
	InternalPlaceholderIdentifier string  `json:"internalPlaceholderIdentifier,omitempty"`
	CreatedAt                     *string `json:"createdAt,omitempty"`
	LastActivity                  *string `json:"lastActivity,omitempty"`
	CRMContactID                  string  `json:"crmContactId,omitempty"`
}

func userAttributesJSON(u domain.User) UserAttributesJSON {
	return UserAttributesJSON{Sub: u.Sub, SuperUser: u.SuperUser, EduPersonPrincipalName: u.EduPersonPrincipalName,
		GivenName: u.GivenName, FamilyName: u.FamilyName, MiddleName: u.MiddleName, Name: u.Name,
		SubjectID: u.SubjectID, FedID: u.FedID, UID: u.UID, SchacHomeOrganization: u.SchacHomeOrganization,
		OrganizationGUID: u.OrganizationGUID, InstitutionAdmin: u.InstitutionAdmin, InstitutionAdminByInvite: u.InstitutionAdminByInvite,
		Email: u.Email, InternalPlaceholderIdentifier: u.InternalPlaceholderIdentifier, CreatedAt: isoTime(u.CreatedAt),
		LastActivity: isoTime(u.LastActivity), CRMContactID: u.CRMContactID}
}

// MemberUserJSON is a User without its memberships: the user of
// a membership in a role's member list, and the core of provisionUserRoles' answer.
type MemberUserJSON struct {
	ID int64 `json:"id"`
	UserAttributesJSON
}

func memberUserJSON(u domain.User) MemberUserJSON {
	return MemberUserJSON{ID: u.ID, UserAttributesJSON: userAttributesJSON(u)}
}

// MemberJSON is a UserRole of membersOfRole: the membership with its user,
// and userInfo, the user's attributes as a free-form object (the
// reference's asMap) for clients that read that instead.
type MemberJSON struct {
	UserRoleJSON
	User     MemberUserJSON `json:"user"`
	UserInfo map[string]any `json:"userInfo"`
}

func memberJSON(m domain.Member) MemberJSON {
	u := m.User
	return MemberJSON{UserRoleJSON: userRoleJSON(m.UserRole, nil), User: memberUserJSON(u),
		UserInfo: map[string]any{"id": u.ID, "name": u.DisplayName(), "email": u.Email, "givenName": u.GivenName,
			"familyName": u.FamilyName, "eduPersonPrincipalName": u.EduPersonPrincipalName,
			"schacHomeOrganization": u.SchacHomeOrganization}}
}

// MemberSearchItemJSON is a content item of searchMembersOfRole, with the reference's field names.
type MemberSearchItemJSON struct {
	ID                    int64            `json:"id"`
	Authority             domain.Authority `json:"authority"`
	GuestRoleIncluded     bool             `json:"guestRoleIncluded"`
	EndDate               *string          `json:"endDate"`
	CreatedAt             *string          `json:"createdAt"`
	UserID                int64            `json:"user_id"`
	Name                  string           `json:"name"`
	Email                 string           `json:"email"`
	SchacHomeOrganization string           `json:"schac_home_organization"`
	RoleID                int64            `json:"role_id"`
}

func memberSearchItemJSON(m domain.Member) MemberSearchItemJSON {
	return MemberSearchItemJSON{ID: m.UserRole.ID, Authority: m.UserRole.Authority, GuestRoleIncluded: m.UserRole.GuestRoleIncluded,
		EndDate: isoTimePtr(m.UserRole.EndDate), CreatedAt: isoTime(m.UserRole.CreatedAt), UserID: m.User.ID,
		Name: m.User.DisplayName(), Email: m.User.Email, SchacHomeOrganization: m.User.SchacHomeOrganization, RoleID: m.UserRole.RoleID}
}

// ProvisionedUserJSON is provisionUserRoles' answer: the User with all its memberships.
type ProvisionedUserJSON struct {
	MemberUserJSON
	UserRoles []UserRoleJSON `json:"userRoles"`
}

func provisionedUserJSON(res service.ProvisionedUser) ProvisionedUserJSON {
	out := ProvisionedUserJSON{MemberUserJSON: memberUserJSON(res.User), UserRoles: []UserRoleJSON{}}
	for _, ur := range res.UserRoles {
		var role *domain.Role
		if r, ok := res.Roles[ur.RoleID]; ok {
			role = &r
		}
		out.UserRoles = append(out.UserRoles, userRoleJSON(ur, role))
	}
	return out
}
