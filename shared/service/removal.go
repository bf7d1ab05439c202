package service

import (
	"context"

	"github.com/edu-invite/invite/shared/domain"
)

// spSet is a set of SP ids that keeps the order they were first added in,
// so that deliveries derived from it are queued in a stable order.
type spSet struct {
	seen map[string]bool
	ids  []string
}

func (o *spSet) add(id string) {
	if o.seen == nil {
		o.seen = map[string]bool{}
	}
	if !o.seen[id] {
		o.seen[id] = true
		o.ids = append(o.ids, id)
	}
}

// userDeleteDeliveries are the SCIM user deletions of a user who leaves the
// service: one per SP of the roles just left (the user may be pending
// there) and per SP where the user is linked, each once. Queued with the
// group removals of the same change, they come after them in the user's
// FIFO group.
func (s *Service) userDeleteDeliveries(ctx context.Context, user domain.User, sps *spSet) ([]domain.Delivery, error) {
	links, err := s.Store.ListLinks(ctx, domain.ResourceUser, user.ID)
	if err != nil {
		return nil, err
	}
	for _, l := range links {
		sps.add(l.SPID)
	}
	out := make([]domain.Delivery, 0, len(sps.ids))
	for _, id := range sps.ids {
		sp, ok := s.Registry.ServiceProvider(id)
		if !ok {
			sp = domain.ServiceProvider{ID: id}
		}
		d := s.newDelivery(ctx, sp, domain.DeliverUserDelete, user.ID, 0)
		d.UserEmail = user.Email // for the audit: the user is gone when this runs
		d.UserSub = user.Sub     // to tell the same person back as a new user
		if ok {
			d.ExternalID = user.ExternalIDAt(sp)
		}
		out = append(out, d)
	}
	return out, nil
}

// applyRemoval numbers the audit entries of a removal, applies it in one
// transaction and queues its deliveries.
func (s *Service) applyRemoval(ctx context.Context, removal domain.Removal) error {
	if err := s.assignAuditIDs(ctx, removal.Audit); err != nil {
		return err
	}
	if err := s.Store.ApplyRemoval(ctx, removal); err != nil {
		return err
	}
	s.dispatch(ctx, removal.Deliveries)
	return nil
}
