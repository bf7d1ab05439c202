package provisioner

import (
	"context"
	"errors"
	"net/http"
	"strconv"

	"github.com/edu-invite/invite/shared/domain"
	"github.com/edu-invite/invite/shared/scim"
)

// ensureGroup makes sure the role's group exists at the SP and returns its
// SP-side id; ok is false when the role no longer exists in the service.
// Only the group's own line (create) may create it: deliveries of other
// lines run concurrently with it, and two look-ups that both find nothing
// would create the group twice (SCIM does not make externalId unique). They
// adopt the group once it is there and are retried until then.
func (p *Provisioner) ensureGroup(ctx context.Context, c SCIMClient, sp domain.ServiceProvider, roleID int64, create bool) (string, bool, error) {
	link, remoteID, err := p.activeLink(ctx, domain.ResourceGroup, roleID, sp.ID)
	if err != nil || remoteID != "" {
		return remoteID, err == nil, err
	}
	role, err := p.Store.GetRole(ctx, roleID)
	if domain.IsNotFound(err) {
		return "", false, nil
	}
	if err != nil {
		return "", false, err
	}
	remoteID, err = p.findGroup(ctx, c, role.URN)
	if err != nil {
		return "", false, err
	}
	if remoteID == "" && !create {
		remoteID, err = p.awaitLink(ctx, domain.ResourceGroup, roleID, sp.ID)
		return remoteID, err == nil, err
	}
	if remoteID == "" {
		created, err := c.CreateGroup(ctx, scim.Group{Schemas: []string{groupSchema}, ExternalID: role.URN,
			DisplayName: role.Name, Members: []scim.Member{}})
		switch {
		case scim.IsConflict(err):
			if remoteID, err = p.findGroup(ctx, c, role.URN); err == nil && remoteID == "" {
				err = permanent("SP reports a conflict for group of role %d but no group has its externalId", roleID)
			}
		case err == nil:
			remoteID = created.ID
		}
		if err != nil {
			return "", false, err
		}
		if remoteID == "" {
			return "", false, permanent("SP created the group of role %d without an id", roleID)
		}
	}
	return remoteID, true, p.storeProvisioned(ctx, link, remoteID)
}

func (p *Provisioner) findGroup(ctx context.Context, c SCIMClient, urn string) (string, error) {
	found, err := c.FindGroups(ctx, "externalId", urn)
	if err != nil || len(found) == 0 {
		return "", err
	}
	return found[0].ID, nil
}

// deleteGroup removes the group at the SP; a group already gone is done.
func (p *Provisioner) deleteGroup(ctx context.Context, c SCIMClient, sp domain.ServiceProvider, roleID int64, externalID string) error {
	link, remoteID, err := p.activeLink(ctx, domain.ResourceGroup, roleID, sp.ID)
	if err != nil {
		return err
	}
	if remoteID == "" && externalID != "" && link.Status != domain.StatusDeprovisioned {
		// No SP id stored: the group was never created there, or its
		// creation's answer was lost and the role was deleted before the
		// retry. Only a look-up tells, and leaves no orphan group behind.
		if remoteID, err = p.findGroup(ctx, c, externalID); err != nil {
			return err
		}
	}
	if remoteID == "" {
		return nil
	}
	if err := c.DeleteGroup(ctx, remoteID); err != nil && !scim.IsNotFound(err) {
		return err
	}
	return p.storeDeprovisioned(ctx, link)
}

// addMember puts a user in a role's group, creating either first when the
// SP does not know it yet: a membership never reaches an SP before both.
func (p *Provisioner) addMember(ctx context.Context, c SCIMClient, sp domain.ServiceProvider, roleID, userID int64) error {
	ur, err := p.Store.GetUserRole(ctx, userID, roleID)
	if err != nil {
		if domain.IsNotFound(err) {
			return nil // the membership ended before it was delivered
		}
		return err
	}
	if !ur.Provisioned() {
		return nil // the guest part was taken away before it was delivered
	}
	// The membership goes in the user's line (PATCH) or the group's (PUT):
	// the other resource is created in its own line only.
	putMode := sp.MembershipMode == domain.MembershipPut
	groupID, ok, err := p.ensureGroup(ctx, c, sp, roleID, putMode)
	if err != nil || !ok {
		return err
	}
	userRemoteID, ok, err := p.ensureUser(ctx, c, sp, userID, !putMode)
	if err != nil || !ok {
		return err
	}
	if sp.MembershipMode == domain.MembershipPut {
		return p.putGroup(ctx, c, sp, roleID, groupID)
	}
	return c.PatchGroupMembers(ctx, groupID, patchAdd, []scim.Member{{Value: userRemoteID}})
}

// removeMember takes a user out of a role's group at the SP.
func (p *Provisioner) removeMember(ctx context.Context, c SCIMClient, sp domain.ServiceProvider, roleID, userID int64) error {
	_, groupID, err := p.activeLink(ctx, domain.ResourceGroup, roleID, sp.ID)
	if err != nil || groupID == "" {
		return err
	}
	_, userRemoteID, err := p.activeLink(ctx, domain.ResourceUser, userID, sp.ID)
	if err != nil || userRemoteID == "" {
		return err
	}
	if sp.MembershipMode == domain.MembershipPut {
		return p.putGroup(ctx, c, sp, roleID, groupID)
	}
	err = c.PatchGroupMembers(ctx, groupID, patchRemove, []scim.Member{{Value: userRemoteID}})
	if scim.IsNotFound(err) {
		return nil
	}
	return err
}

// putGroup replaces the group at the SP with the role's current members
// that exist there. The members are read page by page while the request body
// is written, so a group of any size takes bounded memory.
func (p *Provisioner) putGroup(ctx context.Context, c SCIMClient, sp domain.ServiceProvider, roleID int64, groupID string) error {
	role, err := p.Store.GetRole(ctx, roleID)
	if domain.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return err
	}
	limit := p.MembersPerPage
	if limit <= 0 {
		limit = defaultPageLimit
	}
	members := func(emit func(scim.Member) error) error {
		token := ""
		for {
			page, next, err := p.Store.ListUserRolesOfRole(ctx, roleID, token, limit)
			if err != nil {
				return err
			}
			for _, ur := range page {
				if !ur.Provisioned() { // inviters and managers are not members at SPs
					continue
				}
				_, remoteID, err := p.activeLink(ctx, domain.ResourceUser, ur.UserID, sp.ID)
				if err != nil {
					return err
				}
				if remoteID == "" {
					continue
				}
				if err := emit(scim.Member{Value: remoteID, ExternalID: strconv.FormatInt(ur.UserID, 10)}); err != nil {
					return err
				}
			}
			if next == "" {
				return nil
			}
			token = next
		}
	}
	err = c.ReplaceGroupStreaming(ctx, groupID, scim.Group{Schemas: []string{groupSchema}, ExternalID: role.URN,
		DisplayName: role.Name}, members)
	var se *scim.Error
	if errors.As(err, &se) && se.Status == http.StatusBadRequest && se.SCIMType == "invalidValue" {
		// The members are read from the service while each member's own
		// line runs concurrently: a member deleted at the SP just after it
		// was read makes the SP refuse the whole group. The retry reads the
		// state again; one that keeps failing is dead-lettered on the
		// queue's last receive, with this reason.
		return &stalePutError{err: err}
	}
	return err
}

// stalePutError is a whole-group PUT refused for a member value: retryable,
// because the member list may have changed while it was being sent.
type stalePutError struct{ err error }

func (e *stalePutError) Error() string { return "group members changed while sent: " + e.err.Error() }
func (e *stalePutError) Unwrap() error { return e.err }
