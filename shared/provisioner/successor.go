package provisioner

import (
	"context"

	"github.com/edu-invite/invite/shared/domain"
)

// A user who leaves the service is deleted at the SPs in its own line
// (one per user id). The same person may come back meanwhile as a new user,
// with another id and so another line, whose creation finds the old SP
// account still there (a 409, or a look-up on a retry) and adopts it. The
// old line's deletion and group removals, running after that, would then
// take the account, or its groups, from the person who now holds it. So a
// departed user's deletion and removals first ask whether the account is
// now held by the person's current user, and leave it alone if so.

// successorHolding returns the person's current user when it holds (is
// linked to) remoteID at sp; ok is false when the person is not back, holds
// another account or none there, or the delivery's user still exists.
func (p *Provisioner) successorHolding(ctx context.Context, deliveryID string, departedID int64, spID, remoteID string) (successor domain.User, ok bool, err error) {
	if deliveryID == "" || remoteID == "" {
		return domain.User{}, false, nil
	}
	if _, err := p.Store.GetUser(ctx, departedID); !domain.IsNotFound(err) {
		return domain.User{}, false, err // still a user: its own line decides
	}
	d, err := p.Store.GetDelivery(ctx, deliveryID)
	if domain.IsNotFound(err) || (err == nil && d.UserSub == "") {
		return domain.User{}, false, nil
	}
	if err != nil {
		return domain.User{}, false, err
	}
	successor, err = p.Store.GetUserBySub(ctx, d.UserSub)
	if domain.IsNotFound(err) || (err == nil && successor.ID == departedID) {
		return domain.User{}, false, nil
	}
	if err != nil {
		return domain.User{}, false, err
	}
	link, err := p.Store.GetLink(ctx, domain.ResourceUser, successor.ID, spID)
	if domain.IsNotFound(err) {
		return domain.User{}, false, nil
	}
	if err != nil {
		return domain.User{}, false, err
	}
	return successor, link.Status != domain.StatusDeprovisioned && link.RemoteID == remoteID, nil
}
