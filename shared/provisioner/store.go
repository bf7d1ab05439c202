package provisioner

import (
	"context"

	"github.com/edu-invite/invite/shared/domain"
)

// Store is the part of domain.Store the provisioner uses: it reads what a
// delivery is about, records what the SP now holds (links), and how the
// delivery went (status, audit). Its IAM policy matches: it writes only
// SPLINK#, DELIVERY# and AUDIT# items and the audit sequence (and, through
// GuardStates, SPGUARD#). Besides the errors named below, any method may
// return an error of the storage itself (not a domain error).
type Store interface {
	// GetDelivery reads one delivery; KindNotFound when it is gone.
	GetDelivery(ctx context.Context, id string) (domain.Delivery, error)
	// UpdateDeliveryStatus records how a delivery stands; KindNotFound when
	// the delivery is gone. Marking sent a delivery that is no longer
	// pending changes nothing and is no error.
	UpdateDeliveryStatus(ctx context.Context, d domain.Delivery) error
	// FinishDelivery records a delivery's final status in one conditional
	// write; false when the stored item is not the one to overwrite (a newer
	// replay, or gone): then UpdateDeliveryStatus decides.
	FinishDelivery(ctx context.Context, d domain.Delivery) (bool, error)
	// RecordOutcomes records at once what a batch came to (links, final
	// statuses of deliveries never replayed, audit entries, numbering those
	// without an id); KindInvalid for a replayed delivery, a status not
	// final, or a link of an unknown kind. On an error any part of it may
	// be unwritten.
	RecordOutcomes(ctx context.Context, o domain.Outcomes) error

	// GetLink reads what the service knows of a user or group at one SP;
	// KindNotFound when the SP was never told of it.
	GetLink(ctx context.Context, kind domain.ResourceKind, localID int64, spID string) (domain.SPLink, error)
	// PutLink records what the SP holds of a user or group; KindInvalid for
	// a kind other than user or group.
	PutLink(ctx context.Context, l domain.SPLink) error
	// GetLinksAt reads the links of many users or groups at one SP at once;
	// ids without a link are absent. No domain error.
	GetLinksAt(ctx context.Context, kind domain.ResourceKind, localIDs []int64, spID string) (map[int64]domain.SPLink, error)
	// ListLinksOfSP lists the links of one kind at one SP (a reconcile
	// run). No domain error (none: empty).
	ListLinksOfSP(ctx context.Context, spID string, kind domain.ResourceKind) ([]domain.SPLink, error)

	// GetUser, GetRole and GetUserRole read what a delivery is about;
	// KindNotFound when it was deleted meanwhile.
	GetUser(ctx context.Context, id int64) (domain.User, error)
	// GetUserBySub finds the person's current user; KindNotFound when the
	// person has none.
	GetUserBySub(ctx context.Context, sub string) (domain.User, error)
	GetRole(ctx context.Context, id int64) (domain.Role, error)
	GetUserRole(ctx context.Context, userID, roleID int64) (domain.UserRole, error)
	// ListUserRolesOfRole pages through the members of a group; an empty
	// next token means the last page.
	ListUserRolesOfRole(ctx context.Context, roleID int64, pageToken string, limit int) (page []domain.UserRole, next string, err error)
	// ListUserRolesOfUser returns a user's memberships (healing a lost
	// user re-adds them to their groups). No domain error (none: empty).
	ListUserRolesOfUser(ctx context.Context, userID int64) ([]domain.UserRole, error)

	// GetDeliverySubjects reads the users, roles, memberships and links
	// that a batch of deliveries is about in one request (see batch);
	// absent items are left out. No domain error.
	GetDeliverySubjects(ctx context.Context, q domain.SubjectsQuery) (domain.DeliverySubjects, error)
}
