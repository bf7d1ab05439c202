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

func userKey(userID int64) itemKey { return itemKey{PK: userPK(userID), SK: skUser} }

func userPK(userID int64) string { return "USER#" + id(userID) }

func userSubKey(sub string) itemKey { return itemKey{PK: "USERSUB#" + sub, SK: skUnique} }
