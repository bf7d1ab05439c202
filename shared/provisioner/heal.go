package provisioner

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"sync"

	"github.com/edu-invite/invite/shared/domain"
	"github.com/edu-invite/invite/shared/scim"
)

// Drift is an SP that no longer holds what the service believes it holds:
// it lost its data, or someone deleted a user or group there. A delivery
// that meets it (a 404 on the group or user, or a member value the SP no
// longer knows) creates what is missing again, with the current members,
// stores the new SP-side ids and carries on; it is not a dead letter.

// isDrift reports whether err says that a resource the service believes
// exists at the SP is not there.
func isDrift(err error) bool {
	var se *scim.Error
	if !errors.As(err, &se) {
		return false
	}
	return se.Status == http.StatusNotFound ||
		(se.Status == http.StatusBadRequest && (se.SCIMType == "invalidValue" || se.SCIMType == "noTarget"))
}

// healLock serialises the repair of one resource at one SP within this
// process: two deliveries meeting the same lost group repair it once (the
// second finds the new id on the link).
func (p *Provisioner) healLock(kind domain.ResourceKind, localID int64, spID string) func() {
	v, _ := p.healing.LoadOrStore(fmt.Sprintf("%s/%s/%d", spID, kind, localID), &sync.Mutex{})
	mu := v.(*sync.Mutex)
	mu.Lock()
	return mu.Unlock
}

// recreateGroup repairs the role's group at the SP after a drift answer
// for the group staleID: a group that is gone is created again with the
// current members; one still there is replaced with them. Either way each
// member is first checked at the SP and created again where lost. It
// returns the group's SP-side id ("" when the role is gone) and whether a
// repair was made.
func (p *Provisioner) recreateGroup(ctx context.Context, c SCIMClient, sp domain.ServiceProvider, roleID int64, staleID string) (string, bool, error) {
	unlock := p.healLock(domain.ResourceGroup, roleID, sp.ID)
	defer unlock()
	p.forgetLinks(ctx) // a drift answer: what the batch read may be stale
	link, current, err := p.activeLink(ctx, domain.ResourceGroup, roleID, sp.ID)
	if err != nil {
		return "", false, err
	}
	if current != "" && current != staleID {
		return current, false, nil // repaired meanwhile
	}
	role, err := p.Store.GetRole(ctx, roleID)
	if domain.IsNotFound(err) {
		return "", false, nil
	}
	if err != nil {
		return "", false, err
	}
	members, err := p.verifiedMembers(ctx, c, sp, roleID)
	if err != nil {
		return "", false, err
	}
	if len(members) > 0 {
		// Some of them may have their own add still queued (groups_added.go).
		if link, err = p.noteMembersAdded(ctx, link); err != nil {
			return "", false, err
		}
	}
	groupGone := staleID == ""
	if !groupGone {
		if _, err := c.GetGroup(ctx, staleID); scim.IsNotFound(err) {
			groupGone = true
		} else if err != nil {
			return "", false, err
		}
	}
	if !groupGone {
		want := scim.Group{Schemas: []string{scim.SchemaGroup}, ExternalID: role.URN, DisplayName: role.Name}
		err := c.ReplaceGroupStreaming(ctx, staleID, want, func(emit func(scim.Member) error) error {
			for _, m := range members {
				if err := emit(m); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			return "", false, err
		}
		return staleID, true, p.storeProvisioned(ctx, link, staleID)
	}
	id, err := p.createGroup(ctx, c, sp.ID, role, members, false)
	if err != nil {
		return "", false, err
	}
	p.log().WarnContext(ctx, "group was gone at the SP; created again with its members", "sp", sp.ID, "role", roleID,
		"members", len(members))
	return id, true, p.storeProvisioned(ctx, link, id)
}

// verifiedMembers lists the role's current members that the SP holds,
// each checked with a GET and created again where the SP lost it.
func (p *Provisioner) verifiedMembers(ctx context.Context, c SCIMClient, sp domain.ServiceProvider, roleID int64) ([]scim.Member, error) {
	members := []scim.Member{}
	token := ""
	for {
		page, next, err := p.Store.ListUserRolesOfRole(ctx, roleID, token, p.pageLimit())
		if err != nil {
			return nil, err
		}
		for _, ur := range page {
			if !ur.Provisioned() { // only guests are members at the SPs
				continue
			}
			_, remoteID, err := p.activeLink(ctx, domain.ResourceUser, ur.UserID, sp.ID)
			if err != nil {
				return nil, err
			}
			if remoteID == "" {
				continue // not at the SP yet: its own line adds it
			}
			if _, err := c.GetUser(ctx, remoteID); scim.IsNotFound(err) {
				if remoteID, err = p.recreateUser(ctx, c, sp, ur.UserID, remoteID, false); err != nil {
					return nil, err
				}
			} else if err != nil {
				return nil, err
			}
			if remoteID != "" {
				members = append(members, scim.Member{Value: remoteID, ExternalID: strconv.FormatInt(ur.UserID, 10)})
			}
		}
		if next == "" {
			return members, nil
		}
		token = next
	}
}

// recreateUser creates a user again that the SP lost (staleID was its
// SP-side id) and stores the new id; "" when the user left the service.
// With rejoin, the user is also put back in its groups at the SP.
func (p *Provisioner) recreateUser(ctx context.Context, c SCIMClient, sp domain.ServiceProvider, userID int64, staleID string, rejoin bool) (string, error) {
	id, err := p.recreateUserOnly(ctx, c, sp, userID, staleID)
	if err != nil || id == "" || !rejoin {
		return id, err
	}
	urs, err := p.Store.ListUserRolesOfUser(ctx, userID)
	if err != nil {
		return "", err
	}
	for _, ur := range urs {
		_, groupID, err := p.activeLink(ctx, domain.ResourceGroup, ur.RoleID, sp.ID)
		if err != nil {
			return "", err
		}
		if groupID == "" {
			continue
		}
		if sp.MembershipMode == domain.MembershipPut {
			err = p.putGroup(ctx, c, sp, ur.RoleID, groupID)
		} else {
			err = p.rejoinGroup(ctx, c, sp, ur.RoleID, groupID, id)
		}
		if err != nil {
			return "", err
		}
	}
	return id, nil
}

// rejoinGroup puts a recreated user back in a group at a PATCH SP. The
// user's own add to that group may still be queued, or (when a reconcile
// run repairs) be running: the add is noted and the group read after it
// (groups_added.go).
func (p *Provisioner) rejoinGroup(ctx context.Context, c SCIMClient, sp domain.ServiceProvider, roleID int64, groupID, userRemoteID string) error {
	if err := p.noteMembersAddedTo(ctx, roleID, sp.ID); err != nil {
		return err
	}
	member := []scim.Member{{Value: userRemoteID}}
	err := c.PatchGroupMembers(ctx, groupID, scim.PatchAdd, member)
	if isDrift(err) {
		_, _, err = p.recreateGroup(ctx, c, sp, roleID, groupID)
		return err
	}
	if err != nil {
		return err
	}
	if err := collapseRepeatedMembers(ctx, c, groupID, member); err != nil && !isDrift(err) {
		return err
	}
	return nil
}

func (p *Provisioner) recreateUserOnly(ctx context.Context, c SCIMClient, sp domain.ServiceProvider, userID int64, staleID string) (string, error) {
	unlock := p.healLock(domain.ResourceUser, userID, sp.ID)
	defer unlock()
	p.forgetLinks(ctx) // a drift answer: what the batch read may be stale
	link, current, err := p.activeLink(ctx, domain.ResourceUser, userID, sp.ID)
	if err != nil {
		return "", err
	}
	if current != "" && current != staleID {
		return current, nil // repaired meanwhile
	}
	u, err := p.Store.GetUser(ctx, userID)
	if domain.IsNotFound(err) {
		return "", nil
	}
	if err != nil {
		return "", err
	}
	id, err := p.createUser(ctx, c, sp.ID, scimUser(u, sp), false)
	if err != nil {
		return "", err
	}
	p.log().WarnContext(ctx, "user was gone at the SP; created again", "sp", sp.ID, "user", userID)
	return id, p.storeProvisioned(ctx, link, id)
}

func (p *Provisioner) pageLimit() int {
	if p.MembersPerPage <= 0 {
		return defaultPageLimit
	}
	return p.MembersPerPage
}
