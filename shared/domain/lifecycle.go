package domain

import (
	"context"
	"time"
)

// Removal is everything that changes when memberships end: the memberships
// go with an audit entry each, their SCIM removals and e-mails are queued,
// and when the user has no membership left the user goes too (spec 3.1).
type Removal struct {
	UserRoles  []UserRole
	Audit      []AuditEntry
	Deliveries []Delivery
	Mails      []MailDelivery
	// DeleteUser is set when the user's last membership ends.
	DeleteUser *User
	// KeepUser is the user as read before its memberships were listed, set
	// when the removal keeps the user because another membership was seen:
	// the removal then commits only while the user is still at that version
	// and moves it on, so that two removals that each saw the other's
	// membership cannot both keep a user left without any.
	KeepUser *User
}

// LifecycleStore serves the scheduled jobs: expiry, reminders, cleanup and
// the mail outbox.
type LifecycleStore interface {
	// ListUserRolesEndingBetween returns memberships whose end date is in
	// [from, to), at most limit. KindInvalid for a range of more days than one
	// call reads.
	ListUserRolesEndingBetween(ctx context.Context, from, to time.Time, limit int) ([]UserRole, error)
	// CountUserRolesEndingBetween counts the memberships whose end date is
	// in [from, to) (what an expiry run that stopped early leaves).
	CountUserRolesEndingBetween(ctx context.Context, from, to time.Time) (int64, error)
	// RecordReminder stores ur with its new expiryNotifications if the stored
	// count is still previous (so two runs never both remind), together with
	// the reminder e-mail, in one transaction; KindConflict when another run won.
	RecordReminder(ctx context.Context, ur UserRole, previous int, mail MailDelivery) error
	// ApplyRemoval applies a Removal in one transaction. KindNotFound when a
	// membership or the user is gone, ErrVersionConflict when one changed
	// (also the user of KeepUser).
	ApplyRemoval(ctx context.Context, r Removal) error
	// ApplyRemovals applies the Removals of several users, each of one user
	// and no user in two, in one transaction (the caller keeps it within
	// DynamoDB's 100 writes): all of them or, with the errors of
	// ApplyRemoval, none.
	ApplyRemovals(ctx context.Context, rs []Removal) error

	// PutMails writes new outbox mails. KindInvalid for a mail without id.
	PutMails(ctx context.Context, mails []MailDelivery) error
	// ListPendingMails returns mails still to send, created before the time,
	// at most limit. No domain error (none: empty).
	ListPendingMails(ctx context.Context, createdBefore time.Time, limit int) ([]MailDelivery, error)
	// UpdateMailStatus records how a mail stands. KindNotFound when the mail
	// is gone.
	UpdateMailStatus(ctx context.Context, m MailDelivery) error

	// ListInvitationsExpiringBetween returns invitations whose expiry date is
	// in [from, to), at most limit. KindInvalid for a range of more days than
	// one call reads.
	ListInvitationsExpiringBetween(ctx context.Context, from, to time.Time, limit int) ([]Invitation, error)
	// DeleteInvitations deletes invitations (version-checked) with their role
	// links. KindNotFound when an invitation is gone, ErrVersionConflict when
	// one changed.
	DeleteInvitations(ctx context.Context, invs []Invitation) error
}
