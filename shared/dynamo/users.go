package dynamo

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"

	"github.com/edu-invite/invite/shared/domain"
)

// GetUser reads one user.
func (s *Store) GetUser(ctx context.Context, userID int64) (domain.User, error) {
	var rec userRecord
	found, err := s.getItem(ctx, userKey(userID), &rec)
	if err != nil {
		return domain.User{}, err
	}
	if !found {
		return domain.User{}, userNotFound(userID)
	}
	return rec.domain()
}

// GetUserBySub reads the sub's reservation and then the user it names. The
// user is not copied into the reservation: one copy cannot go stale, and
// the second read is a cheap GetItem.
func (s *Store) GetUserBySub(ctx context.Context, sub string) (domain.User, error) {
	var rec userSubRecord
	found, err := s.getItem(ctx, userSubKey(sub), &rec)
	if err != nil {
		return domain.User{}, err
	}
	if !found {
		return domain.User{}, domain.NotFoundf("no user with sub %q", sub)
	}
	return s.GetUser(ctx, rec.UserID)
}

// UpdateUser replaces the user if its stored version is u.Version and writes
// the deliveries. The sub is the user's identity and is reserved under
// USERSUB#, so an update that changes it is refused.
func (s *Store) UpdateUser(ctx context.Context, u domain.User, deliveries []domain.Delivery) error {
	stored, err := s.storedUserForIndex(ctx, u)
	if err != nil {
		return err
	}
	changes := []change{changedUser(stored, u)}
	st, err := s.readProjectionState(ctx, newProjectionState(), changes)
	if err != nil {
		return err
	}
	t := s.newTxn()
	t.updateUserItem(u, nil)
	relist := t.apply(projectChanges(st, changes...), len(deliveries))
	t.putDeliveries(deliveries)
	if err := t.commit(ctx); err != nil {
		return err
	}
	return s.relistLater(ctx, relist, u)
}

// updateUserItem is the one step that updates a stored user (UpdateUser,
// SaveAcceptance): u is written at the next version only while the stored
// user is still at u.Version with the same sub. It is an UpdateItem of the
// user's fields, not a Put, so that the role summary
// (users_rolesummary.go), which membership writes change without touching
// the version, stays as it is, changed only by roles when given. The
// derived copies of the change are the projection's (projection.go).
func (t *txn) updateUserItem(u domain.User, roles *roleSummaryChange) {
	sameUser := versionIs(u.Version).And(expression.Name("sub").Equal(expression.Value(u.Sub)))
	upd, err := userFieldsUpdate(u, u.Version+1)
	if err != nil {
		t.fail(err)
		return
	}
	if roles != nil {
		upd = roles.apply(upd)
	}
	t.updateItem(userKey(u.ID), upd, sameUser, t.store.userUpdateFailure(u))
}

// userUpdateFailure tells apart the three reasons an update is refused.
func (s *Store) userUpdateFailure(u domain.User) failure {
	return func(ctx context.Context) error {
		stored, err := s.GetUser(ctx, u.ID)
		switch {
		case err != nil:
			return err
		case stored.Version != u.Version:
			return domain.ErrVersionConflict
		case stored.Sub != u.Sub:
			return domain.Invalidf("the sub of user %d cannot change", u.ID)
		}
		return domain.ErrVersionConflict
	}
}

func userNotFound(userID int64) error { return domain.NotFoundf("user %d not found", userID) }
