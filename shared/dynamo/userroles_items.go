package dynamo

import (
	"time"

	"github.com/edu-invite/invite/shared/domain"
)

// userRoleRecord is a membership, stored in its user's partition. gsi1 lists
// the memberships of a role by side and name (memberSideSK); gsi2 finds a
// membership by its own id.
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
	memberListingRecord
	Version int64 `dynamodbav:"version"`
}

// memberListingRecord is the copy of the member's user on a membership
// (domain.MemberListing): with it the membership is in the role's members
// index, gsi4 ROLE#<roleId> / UR#<sort name>#<userId> (members_index.go).
type memberListingRecord struct {
	Listed           bool   `dynamodbav:"listed,omitempty"`
	MemberName       string `dynamodbav:"memberName,omitempty"`
	MemberGivenName  string `dynamodbav:"memberGivenName,omitempty"`
	MemberFamilyName string `dynamodbav:"memberFamilyName,omitempty"`
	MemberEmail      string `dynamodbav:"memberEmail,omitempty"`
	MemberSchacHome  string `dynamodbav:"memberSchacHome,omitempty"`
	MemberOrgGUID    string `dynamodbav:"memberOrganizationGUID,omitempty"`
}

func newUserRoleRecord(ur domain.UserRole, version int64) userRoleRecord {
	rec := userRoleRecord{
		itemKey: userRoleKey(ur.UserID, ur.RoleID),
		indexKeys: indexKeys{
			GSI1PK: prefixRole + id(ur.RoleID),
			GSI1SK: memberSideSK(ur),
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
	if l := ur.Listing; l.Copied {
		rec.memberListingRecord = memberListingRecord{Listed: true, MemberName: l.Name, MemberGivenName: l.GivenName,
			MemberFamilyName: l.FamilyName, MemberEmail: l.Email, MemberSchacHome: l.SchacHomeOrganization, MemberOrgGUID: l.OrganizationGUID}
		rec.GSI4PK = membersIndexPK(ur.RoleID)
		rec.GSI4SK = memberIndexSK(l, ur.UserID)
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
	if l := rec.memberListingRecord; l.Listed {
		ur.Listing = domain.MemberListing{Name: l.MemberName, GivenName: l.MemberGivenName, FamilyName: l.MemberFamilyName,
			Email: l.MemberEmail, SchacHomeOrganization: l.MemberSchacHome, OrganizationGUID: l.MemberOrgGUID, Copied: true}
	}
	return ur, p.err
}

func decodeUserRoles(items []item) ([]domain.UserRole, error) {
	return decodeAll(items, decodeWith[userRoleRecord, domain.UserRole])
}

func userRoleKey(userID, roleID int64) itemKey {
	return itemKey{PK: userPK(userID), SK: prefixUserRole + id(roleID)}
}

func expiresPK(t time.Time) string { return "EXPIRES#" + dayOf(t) }
