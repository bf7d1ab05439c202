package dynamo

import (
	"github.com/edu-invite/invite/shared/domain"
)

// roleRecord is a role. gsi1 lists the roles of an organization by name,
// gsi2 lists all roles by name.
type roleRecord struct {
	itemKey
	indexKeys
	Entity                  string                   `dynamodbav:"entity"`
	ID                      int64                    `dynamodbav:"id"`
	Name                    string                   `dynamodbav:"name"`
	ShortName               string                   `dynamodbav:"shortName,omitempty"`
	Description             string                   `dynamodbav:"description,omitempty"`
	URN                     string                   `dynamodbav:"urn,omitempty"`
	Identifier              string                   `dynamodbav:"identifier,omitempty"`
	DefaultExpiryDays       int                      `dynamodbav:"defaultExpiryDays,omitempty"`
	DefaultExpiryDate       string                   `dynamodbav:"defaultExpiryDate,omitempty"`
	EnforceEmailEquality    bool                     `dynamodbav:"enforceEmailEquality,omitempty"`
	FedIDOnly               bool                     `dynamodbav:"fedIdOnly,omitempty"`
	RequestedAuthnContext   string                   `dynamodbav:"requestedAuthnContext,omitempty"`
	OverrideSettingsAllowed bool                     `dynamodbav:"overrideSettingsAllowed,omitempty"`
	TeamsOrigin             bool                     `dynamodbav:"teamsOrigin,omitempty"`
	OrganizationGUID        string                   `dynamodbav:"organizationGUID,omitempty"`
	RemoteAPIUser           string                   `dynamodbav:"remoteApiUser,omitempty"`
	InviterDisplayName      string                   `dynamodbav:"inviterDisplayName,omitempty"`
	CRMRoleID               string                   `dynamodbav:"crmRoleId,omitempty"`
	CRMRoleName             string                   `dynamodbav:"crmRoleName,omitempty"`
	CRMRoleAbbrevation      string                   `dynamodbav:"crmRoleAbbrevation,omitempty"`
	ApplicationUsages       []applicationUsageRecord `dynamodbav:"applicationUsages,omitempty"`
	UserRoleCount           int64                    `dynamodbav:"userRoleCount,omitempty"`
	CreatedAt               string                   `dynamodbav:"createdAt,omitempty"`
	CreatedBy               string                   `dynamodbav:"createdBy,omitempty"`
	UpdatedAt               string                   `dynamodbav:"updatedAt,omitempty"`
	UpdatedBy               string                   `dynamodbav:"updatedBy,omitempty"`
	// MembersListed says that every membership of the role carries its
	// user's copy, so its members index (gsi4) is complete: set by
	// CreateRole, the seed and RebuildMembersIndexOfRole, kept by UpdateRole.
	MembersListed bool `dynamodbav:"membersListed,omitempty"`
	// MembersSided says that every membership of the role has its side
	// key (gsi1, memberSideSK), so U9 pages a side from it: set with
	// MembersListed, by the same writes and the same rebuild.
	MembersSided bool `dynamodbav:"membersSided,omitempty"`
	// OrganizationsPending says that the role moved to another
	// organization and its members' organization items may not follow yet
	// (roles_move.go).
	OrganizationsPending bool  `dynamodbav:"organizationsPending,omitempty"`
	Version              int64 `dynamodbav:"version"`
}

// applicationUsageRecord keeps the whole application as it was configured
// when the role was written, so that a role reads back exactly as written;
// the service may refresh it from configuration.
type applicationUsageRecord struct {
	ID                 int64    `dynamodbav:"id,omitempty"`
	LandingPage        string   `dynamodbav:"landingPage,omitempty"`
	ApplicationID      int64    `dynamodbav:"applicationId,omitempty"`
	ManageID           string   `dynamodbav:"manageId"`
	ManageType         string   `dynamodbav:"manageType,omitempty"`
	ApplicationName    string   `dynamodbav:"applicationName,omitempty"`
	ApplicationLanding string   `dynamodbav:"applicationLandingPage,omitempty"`
	ProvisioningIDs    []string `dynamodbav:"provisioningIds,omitempty"`
}

// roleNameRecord reserves a normalized role name for one role.
type roleNameRecord struct {
	itemKey
	Entity string `dynamodbav:"entity"`
	RoleID int64  `dynamodbav:"roleId"`
}

// appLinkRecord says that a role is used by an application (one per distinct
// manage id of the role).
type appLinkRecord struct {
	itemKey
	Entity           string `dynamodbav:"entity"`
	RoleID           int64  `dynamodbav:"roleId"`
	OrganizationGUID string `dynamodbav:"organizationGUID,omitempty"`
}

func newRoleRecord(r domain.Role, version int64) roleRecord {
	normalized := domain.NormalizedRoleName(r.Name)
	rec := roleRecord{
		itemKey:                 roleKey(r.ID),
		indexKeys:               indexKeys{GSI2PK: rolesPK, GSI2SK: normalized, GSI4PK: membersIndexPK(r.ID), GSI4SK: roleIndexSK},
		Entity:                  entityRole,
		ID:                      r.ID,
		Name:                    r.Name,
		ShortName:               r.ShortName,
		Description:             r.Description,
		URN:                     r.URN,
		Identifier:              r.Identifier,
		DefaultExpiryDays:       r.DefaultExpiryDays,
		DefaultExpiryDate:       formatTimePtr(r.DefaultExpiryDate),
		EnforceEmailEquality:    r.EnforceEmailEquality,
		FedIDOnly:               r.FedIDOnly,
		RequestedAuthnContext:   r.RequestedAuthnContext,
		OverrideSettingsAllowed: r.OverrideSettingsAllowed,
		TeamsOrigin:             r.TeamsOrigin,
		OrganizationGUID:        r.OrganizationGUID,
		RemoteAPIUser:           r.RemoteAPIUser,
		InviterDisplayName:      r.InviterDisplayName,
		CRMRoleID:               r.CRMRoleID,
		CRMRoleName:             r.CRMRoleName,
		CRMRoleAbbrevation:      r.CRMRoleAbbrevation,
		UserRoleCount:           r.UserRoleCount,
		CreatedAt:               formatTime(r.Auditable.CreatedAt),
		CreatedBy:               r.Auditable.CreatedBy,
		UpdatedAt:               formatTime(r.Auditable.UpdatedAt),
		UpdatedBy:               r.Auditable.UpdatedBy,
		Version:                 version,
	}
	if r.OrganizationGUID != "" {
		rec.GSI1PK = orgPK(r.OrganizationGUID)
		rec.GSI1SK = prefixRole + normalized
	}
	for _, u := range r.ApplicationUsages {
		rec.ApplicationUsages = append(rec.ApplicationUsages, applicationUsageRecord{
			ID:                 u.ID,
			LandingPage:        u.LandingPage,
			ApplicationID:      u.Application.ID,
			ManageID:           u.Application.ManageID,
			ManageType:         u.Application.ManageType,
			ApplicationName:    u.Application.Name,
			ApplicationLanding: u.Application.LandingPage,
			ProvisioningIDs:    u.Application.ProvisioningIDs,
		})
	}
	return rec
}

func (rec roleRecord) domain() (domain.Role, error) {
	var p timeParser
	r := domain.Role{
		ID:                      rec.ID,
		Name:                    rec.Name,
		ShortName:               rec.ShortName,
		Description:             rec.Description,
		URN:                     rec.URN,
		Identifier:              rec.Identifier,
		DefaultExpiryDays:       rec.DefaultExpiryDays,
		DefaultExpiryDate:       p.ptr(rec.DefaultExpiryDate),
		EnforceEmailEquality:    rec.EnforceEmailEquality,
		FedIDOnly:               rec.FedIDOnly,
		RequestedAuthnContext:   rec.RequestedAuthnContext,
		OverrideSettingsAllowed: rec.OverrideSettingsAllowed,
		TeamsOrigin:             rec.TeamsOrigin,
		OrganizationGUID:        rec.OrganizationGUID,
		RemoteAPIUser:           rec.RemoteAPIUser,
		InviterDisplayName:      rec.InviterDisplayName,
		CRMRoleID:               rec.CRMRoleID,
		CRMRoleName:             rec.CRMRoleName,
		CRMRoleAbbrevation:      rec.CRMRoleAbbrevation,
		UserRoleCount:           rec.UserRoleCount,
		Auditable: domain.Auditable{
			CreatedAt: p.time(rec.CreatedAt),
			CreatedBy: rec.CreatedBy,
			UpdatedAt: p.time(rec.UpdatedAt),
			UpdatedBy: rec.UpdatedBy,
		},
		Version: rec.Version,
	}
	for _, u := range rec.ApplicationUsages {
		r.ApplicationUsages = append(r.ApplicationUsages, domain.ApplicationUsage{
			ID:          u.ID,
			LandingPage: u.LandingPage,
			Application: domain.Application{
				ID:              u.ApplicationID,
				ManageID:        u.ManageID,
				ManageType:      u.ManageType,
				Name:            u.ApplicationName,
				LandingPage:     u.ApplicationLanding,
				ProvisioningIDs: u.ProvisioningIDs,
			},
		})
	}
	return r, p.err
}

func newRoleNameRecord(r domain.Role) roleNameRecord {
	return roleNameRecord{itemKey: roleNameKey(r.Name), Entity: entityRoleName, RoleID: r.ID}
}

func newAppLinkRecord(r domain.Role, manageID string) appLinkRecord {
	return appLinkRecord{
		itemKey:          appLinkKey(manageID, r.ID),
		Entity:           entityApplicationRef,
		RoleID:           r.ID,
		OrganizationGUID: r.OrganizationGUID,
	}
}

func decodeRole(av item) (domain.Role, error) {
	var rec roleRecord
	if err := unmarshal(av, &rec); err != nil {
		return domain.Role{}, err
	}
	return rec.domain()
}

func roleKey(roleID int64) itemKey { return itemKey{PK: prefixRole + id(roleID), SK: skRole} }

func roleNameKey(name string) itemKey {
	return itemKey{PK: "ROLENAME#" + domain.NormalizedRoleName(name), SK: skUnique}
}

func appLinkKey(manageID string, roleID int64) itemKey {
	return itemKey{PK: appLinkPK(manageID), SK: prefixRole + id(roleID)}
}

func appLinkPK(manageID string) string { return "APP#" + manageID }

func orgPK(organizationGUID string) string {
	return "ORG#" + organizationGUID
}

// rolesPK is the gsi2 partition that holds every role sorted by name.
const rolesPK = "ROLES"
