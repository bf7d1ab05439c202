package service

import (
	"context"
	"errors"
	"time"

	"github.com/edu-invite/invite/shared/auth"
	"github.com/edu-invite/invite/shared/domain"
)

// ActivityInterval is how stale a user's lastActivity may get before a
// login writes it again: writing it on every request would cost a
// transaction per request for a value shown with a day's precision.
const ActivityInterval = time.Hour

// PersonLoggedIn implements auth.LoginObserver (spec 3.1). When the
// attributes SPs receive differ from what the IdP asserted now, the user is
// updated and a SCIM user update is queued to every SP where the user
// exists, in one transaction, then dispatched. lastActivity is written with
// that change, or on its own at most once per ActivityInterval. A claim the
// IdP did not send leaves the stored value: a token with fewer claims must
// not blank a user at every SP. A concurrent change of the user wins; the
// next login compares again.
func (s *Service) PersonLoggedIn(ctx context.Context, u domain.User, asserted auth.Person) (domain.User, error) {
	now := s.now()
	updated := withAsserted(u, asserted)
	changed := !u.SameAttributes(updated)
	if !changed && now.Sub(u.LastActivity) < ActivityInterval {
		return u, nil
	}
	updated.LastActivity = now
	var deliveries []domain.Delivery
	if changed {
		links, err := s.Store.ListLinks(ctx, domain.ResourceUser, u.ID)
		if err != nil {
			return u, err
		}
		for _, l := range links {
			if l.RemoteID != "" && l.Status != domain.StatusDeprovisioned {
				deliveries = append(deliveries, s.newDelivery(ctx, domain.ServiceProvider{ID: l.SPID}, domain.DeliverUserUpdate, u.ID, 0))
			}
		}
	}
	err := s.Store.UpdateUser(ctx, updated, deliveries)
	if errors.Is(err, domain.ErrVersionConflict) || domain.IsNotFound(err) {
		return u, nil
	}
	if err != nil {
		return u, err
	}
	updated.Version++
	s.dispatch(ctx, deliveries)
	return updated, nil
}

// withAsserted is u with the attributes the IdP asserted, where it asserted them.
func withAsserted(u domain.User, p auth.Person) domain.User {
	set := func(field *string, v string) {
		if v != "" {
			*field = v
		}
	}
	set(&u.EduPersonPrincipalName, p.EduPersonPrincipalName)
	set(&u.SchacHomeOrganization, p.SchacHomeOrganization)
	set(&u.Email, p.Email)
	set(&u.GivenName, p.GivenName)
	set(&u.FamilyName, p.FamilyName)
	set(&u.Name, p.Name)
	set(&u.SubjectID, p.SubjectID)
	set(&u.UID, p.UID)
	set(&u.FedID, p.FedID)
	return u
}
