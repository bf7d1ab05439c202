package domain

// RoleView is what a role's page shows, read in a bounded number of
// requests from the role's members index: the role, a page of its members
// by name (each User is the membership's copy, MemberListing.User), the
// continuation of the members (empty on the last page), the number of
// members, the page's members' links at the SPs asked for, and every kept
// invitation of the role (as their role links copy them) with their roles.
type RoleView struct {
	Role        Role
	Members     []Member
	Next        string
	MemberCount int64
	Links       []SPLink
	// GroupLinks are the role's own group at the SPs of its applications
	// (those delivered to at least once).
	GroupLinks      []SPLink
	Invitations     []Invitation
	InvitationRoles []Role
}
