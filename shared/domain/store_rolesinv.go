package domain

import "context"

// RoleListingStore serves the role listings (R1) and the invitation
// listings and changes (I4, I5, I7, resend) beyond RoleStore and
// InvitationStore.
type RoleListingStore interface {
	// CountUserRolesOfRole counts the memberships of a role. No domain error
	// (an unknown role: 0).
	CountUserRolesOfRole(ctx context.Context, roleID int64) (int64, error)
	// CountMembersOfRoles counts the memberships of each role, in as few
	// requests as the store can (a listing's page of roles). No domain error
	// (an unknown role: 0).
	CountMembersOfRoles(ctx context.Context, roleIDs []int64) (map[int64]int64, error)
	// ListInvitationsOfInviter returns the invitations a user sent, by id. No
	// domain error (none: empty).
	ListInvitationsOfInviter(ctx context.Context, userID int64) ([]Invitation, error)
	// ListInvitationsOfRemoteAPIUser returns the invitations a program (its
	// RemoteAPIUser name) sent, by id. No domain error (none: empty).
	ListInvitationsOfRemoteAPIUser(ctx context.Context, name string) ([]Invitation, error)
	// ReissueInvitation replaces an invitation that is still OPEN at
	// inv.Version (a new hash digest and expiry date: resend). KindGone when
	// the invitation is no longer open, KindConflict when it was accepted,
	// KindNotFound when it is gone, ErrVersionConflict when it changed.
	ReissueInvitation(ctx context.Context, inv Invitation) error
	// ListOpenInvitations returns a page of all open invitations by creation
	// time, and their number. No domain error (none: empty).
	ListOpenInvitations(ctx context.Context, offset, limit int, descending bool) ([]Invitation, int64, error)
	// ListRolesPage answers one page of the roles of an organization (or of
	// every role) matching the query's words, sorted by one of RoleSorts or
	// by member count, and their number, at a cost that does not grow with
	// the roles. Roles of an older version are listed once the index repair
	// has written their listing items (there is no read of every role).
	// KindInvalid (RoleSearchTooBroad) for a query or a member-count sort
	// that would need more roles read than the store's bound.
	ListRolesPage(ctx context.Context, q RoleListQuery) (page Page[Role], err error)
}
