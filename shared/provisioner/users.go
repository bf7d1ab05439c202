package provisioner

import (
	"context"

	"github.com/edu-invite/invite/shared/domain"
	"github.com/edu-invite/invite/shared/scim"
)

// scimUser renders a user for an SP: userName is the identifier the SP
// asks for (spec 1.8); externalId is the institution's placeholder id when
// the invitation carried one (spec 1.7), else the same identifier.
func scimUser(u domain.User, sp domain.ServiceProvider) scim.User {
	ident := u.Identifier(sp.UserIdentifier)
	su := scim.User{
		Schemas:     []string{userSchema},
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
// by a group.update to an SP new to the role (ensureMemberFromGroupLine).
func (p *Provisioner) ensureUser(ctx context.Context, c SCIMClient, sp domain.ServiceProvider, userID int64, create bool) (string, bool, error) {
	link, remoteID, err := p.activeLink(ctx, domain.ResourceUser, userID, sp.ID)
	if err != nil || remoteID != "" {
		return remoteID, err == nil, err
	}
	u, err := p.Store.GetUser(ctx, userID)
	if domain.IsNotFound(err) {
		return "", false, nil
	}
	if err != nil {
		return "", false, err
	}
	want := scimUser(u, sp)
	remoteID, err = p.findUser(ctx, c, want)
	if err != nil {
		return "", false, err
	}
	if remoteID == "" && !create {
		remoteID, err = p.awaitLink(ctx, domain.ResourceUser, userID, sp.ID)
		return remoteID, err == nil, err
	}
	if remoteID == "" {
		created, err := c.CreateUser(ctx, want)
		switch {
		case scim.IsConflict(err):
			// Created meanwhile (or by someone else): adopt the existing one.
			if remoteID, err = p.findUser(ctx, c, want); err == nil && remoteID == "" {
				err = permanent("SP reports a conflict for user %d but no user matches its externalId or userName", userID)
			}
		case err == nil:
			remoteID = created.ID
		}
		if err != nil {
			return "", false, err
		}
		if remoteID == "" {
			return "", false, permanent("SP created user %d without an id", userID)
		}
	}
	return remoteID, true, p.storeProvisioned(ctx, link, remoteID)
}

// findUser looks a user up by externalId, then by userName, so that a
// creation whose answer was lost is not repeated.
func (p *Provisioner) findUser(ctx context.Context, c SCIMClient, u scim.User) (string, error) {
	for _, q := range [][2]string{{"externalId", u.ExternalID}, {"userName", u.UserName}} {
		if q[1] == "" {
			continue
		}
		found, err := c.FindUsers(ctx, q[0], q[1])
		if err != nil {
			return "", err
		}
		if len(found) > 0 {
			return found[0].ID, nil
		}
	}
	return "", nil
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
	return err
}

// deleteUser removes the user at the SP; a user already gone there is done.
func (p *Provisioner) deleteUser(ctx context.Context, c SCIMClient, sp domain.ServiceProvider, userID int64, externalID string) error {
	link, remoteID, err := p.activeLink(ctx, domain.ResourceUser, userID, sp.ID)
	if err != nil {
		return err
	}
	if remoteID == "" && externalID != "" && link.Status != domain.StatusDeprovisioned {
		// No SP id stored: never created there, or the creation's answer
		// was lost and the user left before the retry (see deleteGroup).
		if remoteID, err = p.findUser(ctx, c, scim.User{ExternalID: externalID}); err != nil {
			return err
		}
	}
	if remoteID == "" {
		return nil
	}
	if err := c.DeleteUser(ctx, remoteID); err != nil && !scim.IsNotFound(err) {
		return err
	}
	return p.storeDeprovisioned(ctx, link)
}
