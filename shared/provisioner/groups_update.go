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
// The whole group is sent with PUT at SPs of either membership mode: SCIM
// has no other way to set a display name together with the members.
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
			// An SP new to the role has had no user creations queued for
			// the members, so this line creates them. It can race a
			// member's own line only while that member is being created
			// at this SP right now; the look-up before each POST narrows
			// that to a window of one request. (Queueing user creations
			// in the users' lines instead is the full fix: see README.)
			if _, _, err := p.ensureUser(ctx, c, sp, ur.UserID, true); err != nil {
				return err
			}
		}
		if next == "" {
			break
		}
		token = next
	}
	return p.putGroup(ctx, c, sp, roleID, groupID)
}
