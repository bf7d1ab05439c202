package domain

import "context"

// RoleListingStore serves the role listings (R1) and the invitation
// listings and changes (I4, I5, I7, resend) beyond RoleStore and
// InvitationStore.
type RoleListingStore interface {
	// CountUserRolesOfRole counts the memberships of a role.
	CountUserRolesOfRole(ctx context.Context, roleID int64) (int64, error)
	// ListInvitationsOfInviter returns the invitations a user sent, by id.
	ListInvitationsOfInviter(ctx context.Context, userID int64) ([]Invitation, error)
	// ReissueInvitation replaces an invitation that is still OPEN at
	// inv.Version (a new hash digest and expiry date: resend).
	ReissueInvitation(ctx context.Context, inv Invitation) error
	// ListOpenInvitations returns a page of all open invitations by
	// creation time, and their number.
	ListOpenInvitations(ctx context.Context, offset, limit int, descending bool) ([]Invitation, int64, error)
}
