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
}
