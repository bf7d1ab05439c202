package provisioner

import (
	"context"
	"errors"
	"fmt"

	"github.com/edu-invite/invite/shared/domain"
	"github.com/edu-invite/invite/shared/scim"
)

// scimUser renders a user for an SP: userName is the identifier the SP
// asks for (spec 1.8); externalId is the institution's placeholder id when
// the invitation carried one (spec 1.7), else the same identifier.
func scimUser(u domain.User, sp domain.ServiceProvider) scim.User {
	ident := u.Identifier(sp.UserIdentifier)
	su := scim.User{
		Schemas:     []string{scim.SchemaUser},
		ExternalID:  u.ExternalIDAt(sp),
		UserName:    ident,
		Name:        &scim.Name{GivenName: u.GivenName, FamilyName: u.FamilyName},
		DisplayName: u.DisplayName(),
	}
	if u.Email != "" {
		su.Emails = []scim.Email{{Type: "work", Value: u.Email, Primary: true}}
	}
	return su
}

// ensureUser makes sure the user exists at the SP and returns its SP-side
// id; ok is false when the user no longer exists in the service.
// Like groups, users are created only in their own line (create), except
// by a group.update to an SP new to the role (ensureMemberFromGroupLine);
// other lines wait for the link that line stores.
func (p *Provisioner) ensureUser(ctx context.Context, c SCIMClient, sp domain.ServiceProvider, userID int64, create bool) (string, bool, error) {
	// At a PUT SP the group's line waits for the user's link; at a PATCH
	// SP the user's memberships are in the user's own line.
	awaited := sp.MembershipMode == domain.MembershipPut
	return p.ensureResource(ctx, domain.ResourceUser, userID, sp.ID, create, awaited, func(lookFirst bool) (string, bool, error) {
		u, err := p.getUser(ctx, userID)
		if domain.IsNotFound(err) {
			return "", false, nil
		}
		if err != nil {
			return "", false, err
		}
		// Only the user's own line replaces an earlier user's account (see
		// createUserReplacing): another line creating the user (a group's,
		// for an SP new to the role) may meet the account the user's own
		// line has just made.
		replaces := 1
		if fromGroupLine(ctx) {
			replaces = 0
		}
		remoteID, err := p.createUserReplacing(ctx, c, sp.ID, scimUser(u, sp), lookFirst, replaces)
		return remoteID, true, err
	})
}

// createUser POSTs the user and returns its SP-side id. lookFirst looks
// the user up first (an earlier attempt may have created it); a 409 is
// resolved by a look-up too.
func (p *Provisioner) createUser(ctx context.Context, c SCIMClient, spID string, want scim.User, lookFirst bool) (string, error) {
	return p.createUserReplacing(ctx, c, spID, want, lookFirst, 0)
}

type groupLineKey struct{}

// fromGroupLine reports whether a user is being created by a group's line.
func fromGroupLine(ctx context.Context) bool {
	v, _ := ctx.Value(groupLineKey{}).(bool)
	return v
}

// createUserReplacing is createUser that replaces up to replaces accounts
// of an earlier user (see below) it meets.
func (p *Provisioner) createUserReplacing(ctx context.Context, c SCIMClient, spID string, want scim.User, lookFirst bool, replaces int) (string, error) {
	if lookFirst {
		id, err := p.lookupUser(ctx, c, spID, want)
		if err != nil && !errors.Is(err, errNoLookup) {
			return "", err
		}
		if id != "" {
			return id, nil
		}
	}
	created, err := c.CreateUser(ctx, want)
	if scim.IsConflict(err) {
		// Created meanwhile (or by someone else): adopt the existing one.
		id, lerr := p.lookupConflictingUser(ctx, c, spID, want)
		switch {
		case errors.Is(lerr, errNoLookup):
			return "", fmt.Errorf("SP reports user %s exists (409): %w", want.UserName, lerr)
		case lerr != nil:
			return "", lerr
		case id == "":
			return "", permanent("SP reports a conflict for user %s but no user matches its userName or externalId", want.UserName)
		}
		// The account was not made by this creation (a first attempt; a
		// retry looks first). One with the user's externalId is this
		// service's, an earlier user's of the same person whose deletion
		// has not been delivered yet, with the attributes and the groups
		// of then: adopted, it would keep them, and a group this user is
		// added to again would hold it twice at an SP whose add is not
		// idempotent. It is deleted (as its own line will ask) and the
		// user created anew. One made elsewhere is adopted as it is
		// (reconcile's plan says what it would replace).
		found, err := c.GetUser(ctx, id)
		if err == nil && found.ExternalID == want.ExternalID && replaces > 0 {
			if err = c.DeleteUser(ctx, id); err == nil || scim.IsNotFound(err) {
				return p.createUserReplacing(ctx, c, spID, want, false, replaces-1)
			}
		}
		if scim.IsNotFound(err) {
			// Deleted since the 409 (the earlier user's deletion): the
			// userName is free now.
			return p.createUserReplacing(ctx, c, spID, want, false, replaces-1)
		}
		if err != nil {
			return "", err
		}
		return id, nil
	}
	if err != nil {
		return "", err
	}
	if created.ID == "" {
		return "", permanent("SP created user %s without an id", want.UserName)
	}
	return created.ID, nil
}

// updateUser sends the user's current attributes where the user is known.
func (p *Provisioner) updateUser(ctx context.Context, c SCIMClient, sp domain.ServiceProvider, userID int64) error {
	_, remoteID, err := p.activeLink(ctx, domain.ResourceUser, userID, sp.ID)
	if err != nil || remoteID == "" {
		return err
	}
	u, err := p.Store.GetUser(ctx, userID)
	if domain.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return err
	}
	su := scimUser(u, sp)
	su.ID = remoteID
	_, err = c.ReplaceUser(ctx, remoteID, su)
	if scim.IsNotFound(err) {
		// Drift: the SP lost the user. Create it again, with its groups.
		_, err = p.recreateUser(ctx, c, sp, userID, remoteID, true)
	}
	return err
}

// deleteUser removes the user at the SP; a user already gone there is done.
// The account stays when the person is back as a new user that holds it
// (see successorHolding; deliveryID names the delivery that knows the
// person, "" for none).
func (p *Provisioner) deleteUser(ctx context.Context, c SCIMClient, sp domain.ServiceProvider, userID int64, externalID, deliveryID string) error {
	link, remoteID, err := p.activeLink(ctx, domain.ResourceUser, userID, sp.ID)
	if err != nil {
		return err
	}
	if remoteID == "" && externalID != "" && link.Status != domain.StatusDeprovisioned {
		// No SP id stored: never created there, or the creation's answer
		// was lost and the user left before the retry (see deleteGroup).
		remoteID, err = p.lookupUser(ctx, c, sp.ID, scim.User{ExternalID: externalID})
		if errors.Is(err, errNoLookup) {
			p.log().WarnContext(ctx, "user deletion: no stored SP id and no way to look the user up", "sp", sp.ID, "user", userID)
			return nil
		}
		if err != nil {
			return err
		}
	}
	if remoteID == "" {
		return p.settleNeverCreated(ctx, link)
	}
	if _, held, err := p.successorHolding(ctx, deliveryID, userID, sp.ID, remoteID); err != nil || held {
		if err != nil {
			return err
		}
		return p.settleNeverCreated(ctx, link)
	}
	if err := c.DeleteUser(ctx, remoteID); err != nil && !scim.IsNotFound(err) {
		return err
	}
	if err := p.storeDeprovisioned(ctx, link); err != nil {
		return err
	}
	// The person's new user may have adopted the account between the check
	// and the deletion: it gets its account back, with its groups.
	if successor, held, err := p.successorHolding(ctx, deliveryID, userID, sp.ID, remoteID); err != nil || held {
		if err != nil {
			return err
		}
		_, err = p.recreateUser(ctx, c, sp, successor.ID, remoteID, true)
		return err
	}
	return nil
}
