package domain

import (
	"context"
	"errors"
	"fmt"
)

// UserSearch asks for one page of users. An empty OrganizationGUID searches
// every user (super users); otherwise only the organization's users: those
// holding a role of the organization and its institution admins.
type UserSearch struct {
	OrganizationGUID string
	Page             PageRequest
}

// Seed is what the performance seed writes (S1): roles, users and their
// memberships, without deliveries (seed data are never provisioned).
type Seed struct {
	Roles     []Role
	Users     []User
	UserRoles []UserRole
}

// FoundUser is a user a search found and, when UserRolesKnown, its
// memberships as the user item summarizes them: ID, RoleID, Authority and
// EndDate only, in the order of ListUserRolesOfUser.
type FoundUser struct {
	User           User
	UserRoles      []UserRole
	UserRolesKnown bool
}

// UserSearchStore finds users by words of their names and e-mail, lists
// institution admins and seeds test data. Every user write of the store
// keeps the search index current.
type UserSearchStore interface {
	// SearchUsers returns one page of users sorted by name; the query
	// matches word prefixes of names and e-mail, case-insensitively.
	SearchUsers(ctx context.Context, q UserSearch) (Page[User], error)
	// SearchUsersWithRoles is SearchUsers with, per user, its memberships
	// when the user's item summarizes them (FoundUser.UserRolesKnown), so
	// that a search page reads no membership; the others the caller reads.
	SearchUsersWithRoles(ctx context.Context, q UserSearch) (Page[FoundUser], error)
	// GetUsersWithRoles reads users by id (a BatchGetItem per 100) with
	// their memberships as SearchUsersWithRoles gives them; a missing user
	// is left out. No domain error.
	GetUsersWithRoles(ctx context.Context, ids []int64) ([]FoundUser, error)
	// ListInstitutionAdmins returns the users with institutionAdmin set for
	// the organization, sorted by name. No domain error (none: empty).
	ListInstitutionAdmins(ctx context.Context, organizationGUID string) ([]User, error)
	// Seed writes seed data with batch writes (not atomically). KindInvalid
	// for a membership of a user who is not seeded.
	Seed(ctx context.Context, seed Seed) error
}

// IndexRepair is what one call of RepairIndexes did: the roles or users it
// read, what it wrote, and the cursor of the next call (Done: none).
type IndexRepair struct {
	Next               string `json:"next,omitempty"`
	Done               bool   `json:"done"`
	Roles              int    `json:"roles"`
	RoleCountsRepaired int    `json:"roleCountsRepaired"`
	// MembersIndexesBuilt counts roles whose members index was completed.
	MembersIndexesBuilt int `json:"membersIndexesBuilt"`
	Users               int `json:"users"`
	WordItemsWritten    int `json:"wordItemsWritten"`
	SummariesWritten    int `json:"roleSummariesWritten"`
	// RoleMovesLeft are the roles marked mid-move whose members the call
	// did not all carry (it carries a bounded number per role), each with
	// the cursor that goes on with them: the caller hands them to role
	// move jobs.
	RoleMovesLeft []RoleMoveLeft `json:"-"`
	// RoleMovesHandedOn counts the role move jobs the repair started.
	RoleMovesHandedOn int `json:"roleMovesHandedOn,omitempty"`
}

// RoleMoveLeft is a role's move that a role move job goes on with from
// Cursor.
type RoleMoveLeft struct {
	RoleID int64
	Cursor string
}

// IndexRepairStore rebuilds the derived items that data written by older
// versions lack (word items' listing keys and words, role member counters,
// user organization items, users' role summaries, roles' members indexes), one page of roles or
// users per call: a maintenance operation of super users, run after an
// upgrade until Done. Idempotent: a second run writes nothing.
type IndexRepairStore interface {
	// RepairIndexes repairs the page after cursor ("" starts) of at most
	// limit roles or users. KindInvalid for a cursor it did not make.
	RepairIndexes(ctx context.Context, cursor string, limit int) (IndexRepair, error)
}

// SearchTooBroad is the answer to a user search whose every word names
// more than bound people: the store would have to read them all to give a
// true total and page, so it asks for a narrower query instead. It is an
// Error of KindInvalid (400 on the API); IsSearchTooBroad tells it apart
// so that a page can say so next to its search field.
func SearchTooBroad(bound int) error {
	return &searchTooBroad{bound: bound, err: &Error{Kind: KindInvalid, Message: fmt.Sprintf(
		"the query matches more than %d people: add a word, type more of a name, or search a whole e-mail address", bound)}}
}

type searchTooBroad struct {
	bound int
	err   *Error
}

func (e *searchTooBroad) Error() string { return e.err.Message }
func (e *searchTooBroad) Unwrap() error { return e.err }

// IsSearchTooBroad reports whether err is SearchTooBroad, and its bound.
func IsSearchTooBroad(err error) (bound int, ok bool) {
	var e *searchTooBroad
	if errors.As(err, &e) {
		return e.bound, true
	}
	return 0, false
}
