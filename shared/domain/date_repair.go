package domain

import "context"

// DateRepair is one stored date that could not be stored today (a year
// after 9999, unreadable) and what it is or would be repaired to.
type DateRepair struct {
	Entity   string `json:"entity"`
	ID       int64  `json:"id"`
	Field    string `json:"field"`
	Stored   string `json:"stored"`
	Repaired string `json:"repaired"`
}

// DateRepairStore finds and repairs dates written before dates were
// bounded on input. It reads the whole table: a maintenance operation of
// super users, never a request path of anyone else.
type DateRepairStore interface {
	// RepairDates lists the items with an out-of-range or unreadable date
	// (memberships, invitations, roles, API tokens) and, when apply is true,
	// rewrites each with its repaired dates. No domain error.
	RepairDates(ctx context.Context, apply bool) ([]DateRepair, error)
}
