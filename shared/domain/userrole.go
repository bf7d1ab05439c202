package domain

import "time"

// UserRole is a membership: a user holds a role with an authority until the
// end date (spec 2.6).
type UserRole struct {
	ID                  int64
	UserID              int64
	RoleID              int64
	Inviter             string
	EndDate             *time.Time
	CreatedAt           time.Time
	ExpiryNotifications int
	GuestRoleIncluded   bool
	Authority           Authority
	// Language of the e-mails about this membership (reminders, access
	// ended): the language of the invitation that granted it.
	Language Language
	// Listing is the member as the role's member lists show them, copied
	// from the user when the membership is written and kept by every write
	// that changes it (shared/dynamo's members index); zero on memberships
	// written before the copy existed.
	Listing MemberListing
	Version int64
}

// MemberListing is what a role's member lists show of a member: the
// user's names, e-mail address, home and organization (the latter decides
// who may open the person's page).
type MemberListing struct {
	Name, GivenName, FamilyName, Email string
	SchacHomeOrganization              string
	OrganizationGUID                   string
	// Copied is true on a copy of a user (ListingOf), false on none.
	Copied bool
}

// ListingOf is the copy of u that its memberships carry.
func ListingOf(u User) MemberListing {
	return MemberListing{Name: u.DisplayName(), GivenName: u.GivenName, FamilyName: u.FamilyName, Email: u.Email,
		SchacHomeOrganization: u.SchacHomeOrganization, OrganizationGUID: u.OrganizationGUID, Copied: true}
}

// User is the member as far as the copy knows them (id, names, e-mail,
// home, organization).
func (l MemberListing) User(id int64) User {
	return User{ID: id, Name: l.Name, GivenName: l.GivenName, FamilyName: l.FamilyName, Email: l.Email,
		SchacHomeOrganization: l.SchacHomeOrganization, OrganizationGUID: l.OrganizationGUID}
}

// DaysLeft is the number of started days until the membership ends at now:
// 1 on its last day, 0 or less once it has ended.
func (ur UserRole) DaysLeft(now time.Time) int {
	if ur.EndDate == nil {
		return 1 << 30
	}
	left := ur.EndDate.Sub(now)
	if left <= 0 {
		return 0
	}
	return int((left + 24*time.Hour - 1) / (24 * time.Hour))
}

// Expired reports whether the membership has ended at now.
func (ur UserRole) Expired(now time.Time) bool { return ur.EndDate != nil && !now.Before(*ur.EndDate) }

// Provisioned reports whether the membership reaches the applications of its
// role: only guests are provisioned, and holders of a higher authority only
// when their membership includes the guest role. An inviter or manager who
// is not also a guest is neither created at the SPs nor a group member there.
func (ur UserRole) Provisioned() bool { return ur.Authority == Guest || ur.GuestRoleIncluded }
