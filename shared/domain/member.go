package domain

import "context"

// Member is a membership together with the user who holds it, as the
// member lists of a role show it (U9, U10).
type Member struct {
	UserRole UserRole
	User     User
}

// MemberStore reads the members of a role.
type MemberStore interface {
	// ListMembersOfRole returns up to limit memberships of a role with their
	// users, in the order of the role's membership index; more is set when the
	// role has more than limit members. A membership whose user is gone is
	// left out. No domain error (none: empty).
	ListMembersOfRole(ctx context.Context, roleID int64, limit int) (members []Member, more bool, err error)
	// MembersOfRoleWithAuthority returns the memberships of a role with one
	// of the authorities, with their users, without reading the role's
	// guests unless GUEST is asked for. No domain error (none: empty).
	MembersOfRoleWithAuthority(ctx context.Context, roleID int64, authorities ...Authority) ([]Member, error)
	// MemberRowsOfRole reads a role and up to limit of its members as the
	// lists show them, from the role's members index; more is set when the
	// role has more than limit members. KindNotFound for a missing role.
	MemberRowsOfRole(ctx context.Context, roleID int64, limit int) (role Role, members []Member, more bool, err error)
	// RoleView reads what a role's page shows: the role, a page of size
	// members from its members index after the token after ("" first), their
	// links at spIDsOf(role), the group's links, the member count and the
	// role's invitations. KindInvalid for a token of another role,
	// KindNotFound for a missing role.
	RoleView(ctx context.Context, roleID int64, after string, size int, spIDsOf func(Role) []string) (view RoleView, err error)
	// MembersPageOfRole reads a role and one page of its guests (or its
	// non-guests: any authority but GUEST) by name from its members index,
	// skipping offset of them, with the side's total; page.Next is the
	// token of the page after it. KindNotFound for a missing role.
	MembersPageOfRole(ctx context.Context, roleID int64, guests, descending bool, offset, size int) (role Role, page Page[Member], err error)
	// MembersPageOfRoleAfter is MembersPageOfRole starting right after a
	// page token (a Next of the same role, side and direction), at the
	// same cost at any depth. KindInvalid for any other token, KindNotFound
	// for a missing role.
	MembersPageOfRoleAfter(ctx context.Context, roleID int64, guests, descending bool, after string, size int) (role Role, page Page[Member], err error)
	// AllMembersPageOfRole reads a role and one page of all its members by
	// name, each with its whole user, skipping offset of them, with the
	// role's member count, at the cost of a page whatever the role's size.
	// KindNotFound for a missing role.
	// page.Next is the token of the page after it.
	AllMembersPageOfRole(ctx context.Context, roleID int64, descending bool, offset, size int) (role Role, page Page[Member], err error)
	// AllMembersPageOfRoleAfter is AllMembersPageOfRole starting right
	// after a page token (a Next of the same role and direction), at the
	// same cost at any depth. KindInvalid for any other token, KindNotFound
	// for a missing role.
	AllMembersPageOfRoleAfter(ctx context.Context, roleID int64, descending bool, after string, size int) (role Role, page Page[Member], err error)
}
