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
// updated and a SCIM user update is queued to every SP where the user is or
// is about to be (userUpdateDeliveries), in one transaction, then
// dispatched. lastActivity is written with that change, or on its own at
// most once per ActivityInterval. A claim the IdP did not send leaves the
// stored value: a token with fewer claims must not blank a user at every
// SP. A concurrent change of the user (an acceptance just before) is read
// again and compared again, so the new attributes are not lost to it.
func (s *Service) PersonLoggedIn(ctx context.Context, u domain.User, asserted auth.Person) (domain.User, error) {
	current, result := u, u
	err := s.retryConflicts(ctx, func() error {
		updated, err := s.syncLogin(ctx, current, asserted)
		if domain.IsNotFound(err) {
			return nil // deleted meanwhile: nothing to sync
		}
		if !errors.Is(err, domain.ErrVersionConflict) {
			result = updated
			return err
		}
		fresh, gerr := s.Store.GetUser(ctx, current.ID)
		if domain.IsNotFound(gerr) {
			return nil // deleted meanwhile: nothing to sync
		}
		if gerr != nil {
			return gerr
		}
		current, result = fresh, fresh
		return err
	})
	if errors.Is(err, domain.ErrVersionConflict) || domain.IsNotFound(err) {
		return result, nil
	}
	return result, err
}

// syncLogin is one attempt of PersonLoggedIn on u as read.
func (s *Service) syncLogin(ctx context.Context, u domain.User, asserted auth.Person) (domain.User, error) {
	now := s.now()
	updated := withAsserted(u, asserted)
	changed := !u.SameAttributes(updated)
	if !changed && now.Sub(u.LastActivity) < ActivityInterval {
		return u, nil
	}
	updated.LastActivity = now
	var deliveries []domain.Delivery
	if changed {
		var err error
		if deliveries, err = s.userUpdateDeliveries(ctx, u.ID, nil); err != nil {
			return u, err
		}
	}
	if err := s.Store.UpdateUser(ctx, updated, deliveries); err != nil {
		return u, err
	}
	updated.Version++
	s.dispatch(ctx, deliveries)
	return updated, nil
}

// userUpdateDeliveries are the SCIM user updates of a user whose attributes
// changed: one per SP where the user is linked, and per SP of a role it
// holds as a guest, where its creation may be queued or under way and not
// linked yet (a first acceptance moments ago). In the user's line they come
// after that creation, which, should it not have happened, leaves nothing
// to update. memberships may be given when read already.
func (s *Service) userUpdateDeliveries(ctx context.Context, userID int64, memberships []domain.UserRole) ([]domain.Delivery, error) {
	var sps spSet
	links, err := s.Store.ListLinks(ctx, domain.ResourceUser, userID)
	if err != nil {
		return nil, err
	}
	for _, l := range links {
		if l.Status != domain.StatusDeprovisioned {
			sps.add(l.SPID)
		}
	}
	if memberships == nil {
		if memberships, err = s.Store.ListUserRolesOfUser(ctx, userID); err != nil {
			return nil, err
		}
	}
	var provisioned []domain.UserRole
	for _, ur := range memberships {
		if ur.Provisioned() {
			provisioned = append(provisioned, ur)
		}
	}
	roles, err := s.rolesOf(ctx, provisioned)
	if err != nil {
		return nil, err
	}
	for _, ur := range provisioned {
		for _, sp := range s.Registry.SPsOfRole(roles[ur.RoleID]) {
			sps.add(sp.ID)
		}
	}
	out := make([]domain.Delivery, 0, len(sps.ids))
	for _, id := range sps.ids {
		out = append(out, s.newDelivery(ctx, domain.ServiceProvider{ID: id}, domain.DeliverUserUpdate, userID, 0))
	}
	return out, nil
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
