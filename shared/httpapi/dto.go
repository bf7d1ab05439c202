package httpapi

import (
	"github.com/edu-invite/invite/shared/domain"
)

// RoleJSON is a Role on the wire.
type RoleJSON struct {
	ID                      int64                  `json:"id"`
	Name                    string                 `json:"name"`
	ShortName               string                 `json:"shortName"`
	Description             string                 `json:"description"`
	URN                     string                 `json:"urn"`
	DefaultExpiryDays       int                    `json:"defaultExpiryDays,omitempty"`
	DefaultExpiryDate       *string                `json:"defaultExpiryDate,omitempty"`
	EnforceEmailEquality    bool                   `json:"enforceEmailEquality"`
	FedIDOnly               bool                   `json:"fedIDOnly"`
	RequestedAuthnContext   string                 `json:"requestedAuthnContext,omitempty"`
	OverrideSettingsAllowed bool                   `json:"overrideSettingsAllowed"`
	TeamsOrigin             bool                   `json:"teamsOrigin"`
	Identifier              string                 `json:"identifier"`
	OrganizationGUID        string                 `json:"organizationGUID,omitempty"`
	RemoteAPIUser           string                 `json:"remoteApiUser,omitempty"`
	InviterDisplayName      string                 `json:"inviterDisplayName,omitempty"`
	CRMRoleID               string                 `json:"crmRoleId,omitempty"`
	CRMRoleName             string                 `json:"crmRoleName,omitempty"`
	CRMRoleAbbrevation      string                 `json:"crmRoleAbbrevation,omitempty"`
	UserRoleCount           int64                  `json:"userRoleCount"`
	ApplicationUsages       []ApplicationUsageJSON `json:"applicationUsages"`
	Auditable               AuditableJSON          `json:"auditable"`
	ApplicationMaps         []map[string]any       `json:"applicationMaps"`
}

// ApplicationUsageJSON is an ApplicationUsage on the wire.
type ApplicationUsageJSON struct {
	ID          int64           `json:"id,omitempty"`
	LandingPage string          `json:"landingPage,omitempty"`
	Application ApplicationJSON `json:"application"`
}

// ApplicationJSON is an Application on the wire.
type ApplicationJSON struct {
	ID         int64  `json:"id,omitempty"`
	ManageID   string `json:"manageId"`
	ManageType string `json:"manageType"`
}

// AuditableJSON is who created and changed a record, and when.
type AuditableJSON struct {
	CreatedAt *string `json:"createdAt,omitempty"`
	CreatedBy string  `json:"createdBy,omitempty"`
	UpdatedAt *string `json:"updatedAt,omitempty"`
	UpdatedBy string  `json:"updatedBy,omitempty"`
}

func roleJSON(r domain.Role) RoleJSON {
	out := RoleJSON{
		ID: r.ID, Name: r.Name, ShortName: r.ShortName, Description: r.Description, URN: r.URN,
		DefaultExpiryDays: r.DefaultExpiryDays, DefaultExpiryDate: isoTimePtr(r.DefaultExpiryDate),
		EnforceEmailEquality: r.EnforceEmailEquality, FedIDOnly: r.FedIDOnly, RequestedAuthnContext: r.RequestedAuthnContext,
		OverrideSettingsAllowed: r.OverrideSettingsAllowed, TeamsOrigin: r.TeamsOrigin, Identifier: r.Identifier,
		OrganizationGUID: r.OrganizationGUID, RemoteAPIUser: r.RemoteAPIUser, InviterDisplayName: r.InviterDisplayName,
		CRMRoleID: r.CRMRoleID, CRMRoleName: r.CRMRoleName, CRMRoleAbbrevation: r.CRMRoleAbbrevation, UserRoleCount: r.UserRoleCount,
		Auditable: AuditableJSON{CreatedAt: isoTime(r.Auditable.CreatedAt), CreatedBy: r.Auditable.CreatedBy,
			UpdatedAt: isoTime(r.Auditable.UpdatedAt), UpdatedBy: r.Auditable.UpdatedBy},
		ApplicationUsages: []ApplicationUsageJSON{}, ApplicationMaps: []map[string]any{},
	}
	for _, u := range r.ApplicationUsages {
		out.ApplicationUsages = append(out.ApplicationUsages, ApplicationUsageJSON{ID: u.ID, LandingPage: u.LandingPage,
			Application: ApplicationJSON{ID: u.Application.ID, ManageID: u.Application.ManageID, ManageType: u.Application.ManageType}})
		out.ApplicationMaps = append(out.ApplicationMaps, map[string]any{
			"id": u.Application.ManageID, "type": u.Application.ManageType, "name": u.Application.Name, "landingPage": u.LandingPage,
		})
	}
	return out
}

// InvitationJSON is an Invitation on the wire.
type InvitationJSON struct {
	ID                            int64                `json:"id"`
	IntendedAuthority             domain.Authority     `json:"intendedAuthority"`
	Language                      domain.Language      `json:"language"`
	Status                        string               `json:"status"`
	Email                         string               `json:"email"`
	Message                       string               `json:"message,omitempty"`
	EnforceEmailEquality          bool                 `json:"enforceEmailEquality"`
	FedIDOnly                     bool                 `json:"fedIDOnly"`
	RequestedAuthnContext         string               `json:"requestedAuthnContext,omitempty"`
	GuestRoleIncluded             bool                 `json:"guestRoleIncluded"`
	CreatedAt                     *string              `json:"createdAt,omitempty"`
	ExpiryDate                    *string              `json:"expiryDate,omitempty"`
	RoleExpiryDate                *string              `json:"roleExpiryDate,omitempty"`
	AcceptedAt                    *string              `json:"acceptedAt,omitempty"`
	OrganizationGUID              string               `json:"organizationGUID,omitempty"`
	InternalPlaceholderIdentifier string               `json:"internalPlaceholderIdentifier,omitempty"`
	RemoteAPIUser                 string               `json:"remoteApiUser,omitempty"`
	Roles                         []InvitationRoleJSON `json:"roles"`
	Inviter                       map[string]any       `json:"inviter"`
}

// InvitationRoleJSON is one role of an invitation.
type InvitationRoleJSON struct {
	ID   int64    `json:"id"`
	Role RoleJSON `json:"role"`
}

func invitationJSON(inv domain.Invitation, roles []domain.Role) InvitationJSON {
	out := InvitationJSON{
		ID: inv.ID, IntendedAuthority: inv.IntendedAuthority, Language: inv.Language, Status: string(inv.Status), Email: inv.Email,
		Message: inv.Message, EnforceEmailEquality: inv.EnforceEmailEquality, FedIDOnly: inv.FedIDOnly,
		RequestedAuthnContext: inv.RequestedAuthnContext, GuestRoleIncluded: inv.GuestRoleIncluded,
		CreatedAt: isoTime(inv.CreatedAt), ExpiryDate: isoTime(inv.ExpiryDate), RoleExpiryDate: isoTimePtr(inv.RoleExpiryDate),
		AcceptedAt: isoTimePtr(inv.AcceptedAt), OrganizationGUID: inv.OrganizationGUID,
		InternalPlaceholderIdentifier: inv.InternalPlaceholderIdentifier, RemoteAPIUser: inv.RemoteAPIUser,
		Roles: []InvitationRoleJSON{}, Inviter: map[string]any{"name": inv.InviterName},
	}
	for _, r := range roles {
		out.Roles = append(out.Roles, InvitationRoleJSON{ID: r.ID, Role: roleJSON(r)})
	}
	return out
}

// UserRoleJSON is a membership on the wire, without the nested
// user and role objects where the context already says which they are.
type UserRoleJSON struct {
	ID                  int64            `json:"id"`
	Inviter             string           `json:"inviter,omitempty"`
	EndDate             *string          `json:"endDate,omitempty"`
	CreatedAt           *string          `json:"createdAt,omitempty"`
	ExpiryNotifications int              `json:"expiryNotifications"`
	GuestRoleIncluded   bool             `json:"guestRoleIncluded"`
	Authority           domain.Authority `json:"authority"`
	UserID              int64            `json:"userId,omitempty"`
	RoleID              int64            `json:"roleId,omitempty"`
	Role                *RoleJSON        `json:"role,omitempty"`
}

func userRoleJSON(ur domain.UserRole, role *domain.Role) UserRoleJSON {
	out := UserRoleJSON{ID: ur.ID, Inviter: ur.Inviter, EndDate: isoTimePtr(ur.EndDate), CreatedAt: isoTime(ur.CreatedAt),
		ExpiryNotifications: ur.ExpiryNotifications, GuestRoleIncluded: ur.GuestRoleIncluded, Authority: ur.Authority,
		UserID: ur.UserID, RoleID: ur.RoleID}
	if role != nil {
		rj := roleJSON(*role)
		out.Role = &rj
	}
	return out
}
