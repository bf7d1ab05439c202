package dynamo

import (
	"github.com/edu-invite/invite/shared/domain"
)

// userRecord is a user.
type userRecord struct {
	itemKey
	// indexKeys list the user by name (gsi2) and institution admins by
	// organization (gsi3); see users_index.go.
	indexKeys
	Entity                        string `dynamodbav:"entity"`
	ID                            int64  `dynamodbav:"id"`
	Sub                           string `dynamodbav:"sub"`
	SuperUser                     bool   `dynamodbav:"superUser,omitempty"`
	EduPersonPrincipalName        string `dynamodbav:"eduPersonPrincipalName,omitempty"`
	GivenName                     string `dynamodbav:"givenName,omitempty"`
	FamilyName                    string `dynamodbav:"familyName,omitempty"`
	MiddleName                    string `dynamodbav:"middleName,omitempty"`
	Name                          string `dynamodbav:"name,omitempty"`
	SubjectID                     string `dynamodbav:"subjectId,omitempty"`
	FedID                         string `dynamodbav:"fedId,omitempty"`
	UID                           string `dynamodbav:"uid,omitempty"`
	SchacHomeOrganization         string `dynamodbav:"schacHomeOrganization,omitempty"`
	OrganizationGUID              string `dynamodbav:"organizationGUID,omitempty"`
	InstitutionAdmin              bool   `dynamodbav:"institutionAdmin,omitempty"`
	InstitutionAdminByInvite      bool   `dynamodbav:"institutionAdminByInvite,omitempty"`
	Email                         string `dynamodbav:"email,omitempty"`
	InternalPlaceholderIdentifier string `dynamodbav:"internalPlaceholderIdentifier,omitempty"`
	CreatedAt                     string `dynamodbav:"createdAt,omitempty"`
	LastActivity                  string `dynamodbav:"lastActivity,omitempty"`
	CRMContactID                  string `dynamodbav:"crmContactId,omitempty"`
	Version                       int64  `dynamodbav:"version"`
}

// userSubRecord reserves a sub for one user and leads from the sub to it.
type userSubRecord struct {
	itemKey
	Entity string `dynamodbav:"entity"`
	UserID int64  `dynamodbav:"userId"`
}

func newUserRecord(u domain.User, version int64) userRecord {
	return userRecord{
		itemKey:                       userKey(u.ID),
		indexKeys:                     userIndexKeys(u),
		Entity:                        entityUser,
		ID:                            u.ID,
		Sub:                           u.Sub,
		SuperUser:                     u.SuperUser,
		EduPersonPrincipalName:        u.EduPersonPrincipalName,
		GivenName:                     u.GivenName,
		FamilyName:                    u.FamilyName,
		MiddleName:                    u.MiddleName,
		Name:                          u.Name,
		SubjectID:                     u.SubjectID,
		FedID:                         u.FedID,
		UID:                           u.UID,
		SchacHomeOrganization:         u.SchacHomeOrganization,
		OrganizationGUID:              u.OrganizationGUID,
		InstitutionAdmin:              u.InstitutionAdmin,
		InstitutionAdminByInvite:      u.InstitutionAdminByInvite,
		Email:                         u.Email,
		InternalPlaceholderIdentifier: u.InternalPlaceholderIdentifier,
		CreatedAt:                     formatTime(u.CreatedAt),
		LastActivity:                  formatTime(u.LastActivity),
		CRMContactID:                  u.CRMContactID,
		Version:                       version,
	}
}

func (rec userRecord) domain() (domain.User, error) {
	var p timeParser
	u := domain.User{
		ID:                            rec.ID,
		Sub:                           rec.Sub,
		SuperUser:                     rec.SuperUser,
		EduPersonPrincipalName:        rec.EduPersonPrincipalName,
		GivenName:                     rec.GivenName,
		FamilyName:                    rec.FamilyName,
		MiddleName:                    rec.MiddleName,
		Name:                          rec.Name,
		SubjectID:                     rec.SubjectID,
		FedID:                         rec.FedID,
		UID:                           rec.UID,
		SchacHomeOrganization:         rec.SchacHomeOrganization,
		OrganizationGUID:              rec.OrganizationGUID,
		InstitutionAdmin:              rec.InstitutionAdmin,
		InstitutionAdminByInvite:      rec.InstitutionAdminByInvite,
		Email:                         rec.Email,
		InternalPlaceholderIdentifier: rec.InternalPlaceholderIdentifier,
		CreatedAt:                     p.time(rec.CreatedAt),
		LastActivity:                  p.time(rec.LastActivity),
		CRMContactID:                  rec.CRMContactID,
		Version:                       rec.Version,
	}
	return u, p.err
}

func newUserSubRecord(u domain.User) userSubRecord {
	return userSubRecord{itemKey: userSubKey(u.Sub), Entity: entityUserSub, UserID: u.ID}
}

// userRoleRecord is a membership, stored in its user's partition. gsi1 lists
// the memberships of a role; gsi2 finds a membership by its own id.
type userRoleRecord struct {
	itemKey
	indexKeys
	Entity              string `dynamodbav:"entity"`
	ID                  int64  `dynamodbav:"id"`
	UserID              int64  `dynamodbav:"userId"`
	RoleID              int64  `dynamodbav:"roleId"`
	Inviter             string `dynamodbav:"inviter,omitempty"`
	EndDate             string `dynamodbav:"endDate,omitempty"`
	CreatedAt           string `dynamodbav:"createdAt,omitempty"`
	ExpiryNotifications int    `dynamodbav:"expiryNotifications,omitempty"`
	GuestRoleIncluded   bool   `dynamodbav:"guestRoleIncluded,omitempty"`
	Authority           string `dynamodbav:"authority"`
	Language            string `dynamodbav:"language,omitempty"`
	Version             int64  `dynamodbav:"version"`
}

func newUserRoleRecord(ur domain.UserRole, version int64) userRoleRecord {
	rec := userRoleRecord{
		itemKey: userRoleKey(ur.UserID, ur.RoleID),
		indexKeys: indexKeys{
			GSI1PK: prefixRole + id(ur.RoleID),
			GSI1SK: prefixUserRole + id(ur.UserID),
			GSI2PK: prefixUserRole + id(ur.ID),
			GSI2SK: "UR",
		},
		Entity:              entityUserRole,
		ID:                  ur.ID,
		UserID:              ur.UserID,
		RoleID:              ur.RoleID,
		Inviter:             ur.Inviter,
		EndDate:             formatTimePtr(ur.EndDate),
		CreatedAt:           formatTime(ur.CreatedAt),
		ExpiryNotifications: ur.ExpiryNotifications,
		GuestRoleIncluded:   ur.GuestRoleIncluded,
		Authority:           string(ur.Authority),
		Language:            string(ur.Language),
		Version:             version,
	}
	if ur.EndDate != nil {
		// gsi3 holds memberships by the day they end, for reminders and expiry.
		rec.GSI3PK = expiresPK(*ur.EndDate)
		rec.GSI3SK = timeOrdered(*ur.EndDate, id(ur.ID))
	}
	return rec
}

func (rec userRoleRecord) domain() (domain.UserRole, error) {
	var p timeParser
	ur := domain.UserRole{
		ID:                  rec.ID,
		UserID:              rec.UserID,
		RoleID:              rec.RoleID,
		Inviter:             rec.Inviter,
		EndDate:             p.ptr(rec.EndDate),
		CreatedAt:           p.time(rec.CreatedAt),
		ExpiryNotifications: rec.ExpiryNotifications,
		GuestRoleIncluded:   rec.GuestRoleIncluded,
		Authority:           domain.Authority(rec.Authority),
		Language:            domain.Language(rec.Language),
		Version:             rec.Version,
	}
	return ur, p.err
}

func decodeUserRoles(items []item) ([]domain.UserRole, error) {
	return decodeAll(items, decodeWith[userRoleRecord, domain.UserRole])
}
