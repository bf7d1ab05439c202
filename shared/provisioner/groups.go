package provisioner

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"time"

	"github.com/edu-invite/invite/shared/domain"
	"github.com/edu-invite/invite/shared/scim"
)

// ensureGroup makes sure the role's group exists at the SP and returns its
// SP-side id; ok is false when the role no longer exists in the service.
// Only the group's own line (create) may create it: deliveries of other
// lines run concurrently with it, and two of them would create the group
// twice (SCIM does not make externalId unique). They wait for the link the
// group's line stores and are retried until then.
func (p *Provisioner) ensureGroup(ctx context.Context, c SCIMClient, sp domain.ServiceProvider, roleID int64, create bool) (string, bool, error) {
	// Memberships in users' lines wait for the group's link.
	return p.ensureResource(ctx, domain.ResourceGroup, roleID, sp.ID, create, true, func(lookFirst bool) (string, bool, error) {
		role, err := p.getRole(ctx, roleID)
		if domain.IsNotFound(err) {
			return "", false, nil
		}
		if err != nil {
			return "", false, err
		}
		remoteID, err := p.createGroup(ctx, c, sp.ID, role, nil, lookFirst)
		return remoteID, true, err
	})
}

// createGroup POSTs the role's group with the given members and returns
// its SP-side id. lookFirst looks it up first (an earlier attempt may have
// created it); a 409 is resolved by a look-up, and the group found is then
// given the members.
func (p *Provisioner) createGroup(ctx context.Context, c SCIMClient, spID string, role domain.Role, members []scim.Member, lookFirst bool) (string, error) {
	want := scim.Group{Schemas: []string{scim.SchemaGroup}, ExternalID: role.URN, DisplayName: role.Name, Members: members}
	if members == nil {
		want.Members = []scim.Member{}
	}
	adopt := func(id string) (string, error) {
		if len(members) == 0 {
			return id, nil
		}
		return id, c.ReplaceGroupStreaming(ctx, id, want, func(emit func(scim.Member) error) error {
			for _, m := range members {
				if err := emit(m); err != nil {
					return err
				}
			}
			return nil
		})
	}
	if lookFirst {
		id, err := p.lookupGroup(ctx, c, spID, role.URN, role.Name)
		if err != nil && !errors.Is(err, errNoLookup) {
			return "", err
		}
		if id != "" {
			return adopt(id)
		}
	}
	created, err := c.CreateGroup(ctx, want)
	if scim.IsConflict(err) {
		id, lerr := p.lookupGroup(ctx, c, spID, role.URN, role.Name)
		switch {
		case errors.Is(lerr, errNoLookup):
			return "", fmt.Errorf("SP reports the group of role %d exists (409): %w", role.ID, lerr)
		case lerr != nil:
			return "", lerr
		case id == "":
			return "", permanent("SP reports a conflict for the group of role %d but no group has its externalId or name", role.ID)
		}
		return adopt(id)
	}
	if err != nil {
		return "", err
	}
	if created.ID == "" {
		return "", permanent("SP created the group of role %d without an id", role.ID)
	}
	return created.ID, nil
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
		remoteID, err = p.lookupGroup(ctx, c, sp.ID, externalID, "")
		if errors.Is(err, errNoLookup) {
			p.log().WarnContext(ctx, "group deletion: no stored SP id and no way to look the group up", "sp", sp.ID, "role", roleID)
			return nil
		}
		if err != nil {
			return err
		}
	}
	if remoteID == "" {
		return p.settleNeverCreated(ctx, link)
	}
	if err := c.DeleteGroup(ctx, remoteID); err != nil && !scim.IsNotFound(err) {
		return err
	}
	return p.storeDeprovisioned(ctx, link)
}

// addMember puts a user in a role's group, creating either first when the
// SP does not know it yet: a membership never reaches an SP before both.
// queuedAt is when the delivery was written (see settleOwnAdd).
func (p *Provisioner) addMember(ctx context.Context, c SCIMClient, sp domain.ServiceProvider, roleID, userID int64, queuedAt time.Time) error {
	ur, err := p.getUserRole(ctx, userID, roleID)
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
	member := []scim.Member{{Value: userRemoteID}}
	if isRetry(ctx) {
		// The earlier attempt may have added the member; an SP whose PATCH
		// add is not idempotent would hold it twice (or already does).
		held, err := timesMember(ctx, c, groupID, userRemoteID)
		if err == nil && held > 0 {
			if held > 1 {
				return collapseRepeatedMembers(ctx, c, groupID, member)
			}
			return nil
		}
		if err != nil && !isDrift(err) {
			return err
		}
	}
	err = c.PatchGroupMembers(ctx, groupID, scim.PatchAdd, member)
	if isDrift(err) {
		// The group or the user is gone at the SP: the group is made whole
		// again, its lost members created anew, this user among them.
		_, _, err = p.recreateGroup(ctx, c, sp, roleID, groupID)
		return err
	}
	if err != nil {
		return err
	}
	return p.settleOwnAdd(ctx, c, sp, roleID, userID, groupID, member, queuedAt)
}

// removeMember takes a user out of a role's group at the SP. At a PUT SP
// the group is replaced with its current members whether or not the user
// is still at the SP: the user's deletion runs in its own line, and the
// group must not keep a member the SP no longer has.
func (p *Provisioner) removeMember(ctx context.Context, c SCIMClient, sp domain.ServiceProvider, roleID, userID int64, deliveryID string) error {
	_, groupID, err := p.activeLink(ctx, domain.ResourceGroup, roleID, sp.ID)
	if err != nil || groupID == "" {
		return err
	}
	if sp.MembershipMode == domain.MembershipPut {
		return p.putGroup(ctx, c, sp, roleID, groupID)
	}
	_, userRemoteID, err := p.activeLink(ctx, domain.ResourceUser, userID, sp.ID)
	if err != nil || userRemoteID == "" {
		return err
	}
	// A departed user's account may now be the person's new user's, and
	// that user a member of this group again (see successorHolding).
	if successor, held, err := p.successorHolding(ctx, deliveryID, userID, sp.ID, userRemoteID); err != nil {
		return err
	} else if held {
		ur, err := p.Store.GetUserRole(ctx, successor.ID, roleID)
		if err == nil && ur.Provisioned() {
			return nil
		}
		if err != nil && !domain.IsNotFound(err) {
			return err
		}
	}
	err = c.PatchGroupMembers(ctx, groupID, scim.PatchRemove, []scim.Member{{Value: userRemoteID}})
	if !isDrift(err) {
		return err
	}
	// The user or the group is gone at the SP. A lost group is created
	// again with its current members (this user no longer among them).
	_, _, err = p.recreateGroup(ctx, c, sp, roleID, groupID)
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
			// One batched read of the page's links, not one read per member.
			ids := make([]int64, len(page))
			for i, ur := range page {
				ids[i] = ur.UserID
			}
			links, err := p.Store.GetLinksAt(ctx, domain.ResourceUser, ids, sp.ID)
			if err != nil {
				return err
			}
			for _, ur := range page {
				if !ur.Provisioned() { // inviters and managers are not members at SPs
					continue
				}
				l, ok := links[ur.UserID]
				if !ok || l.Status == domain.StatusDeprovisioned || l.RemoteID == "" {
					continue
				}
				if err := emit(scim.Member{Value: l.RemoteID, ExternalID: strconv.FormatInt(ur.UserID, 10)}); err != nil {
					return err
				}
			}
			if next == "" {
				return nil
			}
			token = next
		}
	}
	err = c.ReplaceGroupStreaming(ctx, groupID, scim.Group{Schemas: []string{scim.SchemaGroup}, ExternalID: role.URN,
		DisplayName: role.Name}, members)
	if isDrift(err) {
		// The group, or a member, is gone at the SP: the group is created
		// again, or its members are checked and re-created where lost.
		_, _, err = p.recreateGroup(ctx, c, sp, roleID, groupID)
	}
	var se *scim.Error
	if errors.As(err, &se) && se.Status == http.StatusBadRequest && se.SCIMType == "invalidValue" {
		// The members are read from the service while each member's own
		// line runs concurrently: a member deleted at the SP just after it
		// was read makes the SP refuse the whole group. The retry reads the
		// state again; one that keeps failing is dead-lettered on the
		// queue's last receive, with this reason.
		return &stalePutError{err: err}
	}
	if err != nil {
		return err
	}
	// The group's status shows when it last changed at the SP.
	l, err := p.Store.GetLink(ctx, domain.ResourceGroup, roleID, sp.ID)
	if err != nil || l.RemoteID != groupID {
		return err
	}
	return p.storeProvisioned(ctx, l, groupID)
}

// stalePutError is a whole-group PUT refused for a member value: retryable,
// because the member list may have changed while it was being sent.
type stalePutError struct{ err error }

func (e *stalePutError) Error() string { return "group members changed while sent: " + e.err.Error() }
func (e *stalePutError) Unwrap() error { return e.err }
