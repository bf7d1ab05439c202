package provisioner

import (
	"context"

	"github.com/edu-invite/invite/shared/domain"
)

// updateGroup makes the role's group at the SP match the role (a rename, or
// an SP new to the role): the group is created when missing, every current
// member is created at the SP when missing, and then the group is replaced
// with the role's display name and members. Members are read page by page,
// so a role of any size takes bounded memory; a retry after a failure
// finds what was already created by its externalId and goes on from there.
// At a PUT SP the whole group is sent (its members change in its own line
// only); at a PATCH SP it is renamed and given missing members with PATCH
// (patchUpdateGroup), so that it never undoes a member's own line.
func (p *Provisioner) updateGroup(ctx context.Context, c SCIMClient, sp domain.ServiceProvider, roleID int64) error {
	groupID, ok, err := p.ensureGroup(ctx, c, sp, roleID, true) // the group's own line
	if err != nil || !ok {
		return err
	}
	limit := p.MembersPerPage
	if limit <= 0 {
		limit = defaultPageLimit
	}
	token := ""
	for {
		page, next, err := p.Store.ListUserRolesOfRole(ctx, roleID, token, limit)
		if err != nil {
			return err
		}
		for _, ur := range page {
			if !ur.Provisioned() { // only guests are created at the SPs
				continue
			}
			if err := p.ensureMemberFromGroupLine(ctx, c, sp, ur.UserID); err != nil {
				return err
			}
		}
		if next == "" {
			break
		}
		token = next
	}
	if sp.MembershipMode != domain.MembershipPut {
		return p.patchUpdateGroup(ctx, c, sp, roleID, groupID)
	}
	return p.putGroup(ctx, c, sp, roleID, groupID)
}

// ensureMemberFromGroupLine creates a member at an SP new to the role. No
// user creations were queued in the members' own lines for that SP, so the
// group's line creates them; that is the one place where a user is created
// outside its own line, and it can race the user's deletion there: if the
// user leaves the service after being read here, its own line may delete
// at this SP before the creation (finding nothing). So the user is read
// again once it exists at the SP, and deleted there if it is gone: either
// the user's line still finds it (by the link or the externalId) or this
// does. A deletion at the SP that is repeated answers 404, which is fine.
func (p *Provisioner) ensureMemberFromGroupLine(ctx context.Context, c SCIMClient, sp domain.ServiceProvider, userID int64) error {
	if _, ok, err := p.ensureUser(context.WithValue(ctx, groupLineKey{}, true), c, sp, userID, true); err != nil || !ok {
		return err
	}
	_, err := p.Store.GetUser(ctx, userID)
	if !domain.IsNotFound(err) {
		return err
	}
	return p.deleteUser(ctx, c, sp, userID, "", "")
}
