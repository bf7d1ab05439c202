package provisioner

import (
	"context"
	"errors"
	"net/http"
	"strconv"

	"github.com/edu-invite/invite/shared/domain"
	"github.com/edu-invite/invite/shared/scim"
)

// At a PATCH SP a group's members are changed by each member's own line
// (PATCH add and remove), concurrently with the group's line. A whole-group
// PUT from the group's line would undo an add that reached the SP after the
// PUT's members were read, or whose user's link the PUT could not see yet
// (a batch stores it when it ends). So the group's line never replaces the
// members there: it reads the group at the SP, renames it with a PATCH of
// displayName when the name differs, and adds the current members the SP
// lacks. Adding only, after reading, also keeps SPs whose PATCH add is not
// idempotent free of duplicates. A member removed while this ran may have
// left the SP before the add: the members are read once more afterwards and
// such adds taken back.

// groupRenamer is the optional PATCH of a group's displayName.
type groupRenamer interface {
	RenameGroup(ctx context.Context, groupID, displayName string) error
}

// patchUpdateGroup brings the group at a PATCH SP in line with the role.
func (p *Provisioner) patchUpdateGroup(ctx context.Context, c SCIMClient, sp domain.ServiceProvider, roleID int64, groupID string) error {
	role, err := p.Store.GetRole(ctx, roleID)
	if domain.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return err
	}
	atSP, err := c.GetGroup(ctx, groupID)
	if isDrift(err) {
		_, _, err = p.recreateGroup(ctx, c, sp, roleID, groupID)
		return err
	}
	if err != nil {
		return err
	}
	if atSP.DisplayName != role.Name {
		if err := p.renameGroup(ctx, c, sp, role, groupID, atSP); err != nil {
			return err
		}
	}
	present := map[string]int{}
	for _, m := range atSP.Members {
		present[m.Value]++
	}
	wanted, err := p.membersAt(ctx, sp, roleID)
	if err != nil {
		return err
	}
	// A member the SP already holds twice (an add whose answer was lost,
	// and the member's own add, at an SP whose add is not idempotent) is
	// made to appear once as well.
	var add, twice []scim.Member
	for _, m := range wanted {
		switch {
		case present[m.Value] == 0:
			add = append(add, scim.Member{Value: m.Value})
		case present[m.Value] > 1:
			twice = append(twice, scim.Member{Value: m.Value})
		}
	}
	if len(add) == 0 && len(twice) > 0 {
		if err := collapseRepeatedMembers(ctx, c, groupID, twice); err != nil && !isDrift(err) {
			return err
		}
	}
	if len(add) > 0 {
		// Some of them may have their own add still queued (groups_added.go).
		if err := p.noteMembersAddedTo(ctx, roleID, sp.ID); err != nil {
			return err
		}
	}
	if err := c.PatchGroupMembers(ctx, groupID, scim.PatchAdd, add); err != nil {
		if isDrift(err) {
			_, _, err = p.recreateGroup(ctx, c, sp, roleID, groupID)
		}
		return err
	}
	if len(add) > 0 {
		still, err := p.membersAt(ctx, sp, roleID)
		if err != nil {
			return err
		}
		kept := map[string]bool{}
		for _, m := range still {
			kept[m.Value] = true
		}
		var takeBack []scim.Member
		for _, m := range add {
			if !kept[m.Value] {
				takeBack = append(takeBack, m)
			}
		}
		if err := c.PatchGroupMembers(ctx, groupID, scim.PatchRemove, takeBack); err != nil && !isDrift(err) {
			return err
		}
		if err := collapseRepeatedMembers(ctx, c, groupID, append(add, twice...)); err != nil && !isDrift(err) {
			return err
		}
	}
	l, err := p.Store.GetLink(ctx, domain.ResourceGroup, roleID, sp.ID)
	if err != nil || l.RemoteID != groupID {
		return err
	}
	return p.storeProvisioned(ctx, l, groupID)
}

// renameGroup sets the group's displayName with a PATCH; an SP that refuses
// that PATCH gets the group replaced with the members it holds now.
func (p *Provisioner) renameGroup(ctx context.Context, c SCIMClient, sp domain.ServiceProvider, role domain.Role, groupID string, atSP scim.Group) error {
	if r, ok := c.(groupRenamer); ok {
		err := r.RenameGroup(ctx, groupID, role.Name)
		var se *scim.Error
		if err == nil || !errors.As(err, &se) || (se.Status != http.StatusBadRequest && se.Status != http.StatusNotImplemented) {
			return err
		}
	}
	return c.ReplaceGroupStreaming(ctx, groupID, scim.Group{Schemas: []string{scim.SchemaGroup}, ExternalID: role.URN,
		DisplayName: role.Name}, func(emit func(scim.Member) error) error {
		for _, m := range atSP.Members {
			if err := emit(scim.Member{Value: m.Value}); err != nil {
				return err
			}
		}
		return nil
	})
}

// membersAt are the role's current guest members that exist at the SP, as
// their SP-side ids, read page by page.
func (p *Provisioner) membersAt(ctx context.Context, sp domain.ServiceProvider, roleID int64) ([]scim.Member, error) {
	limit := p.MembersPerPage
	if limit <= 0 {
		limit = defaultPageLimit
	}
	var out []scim.Member
	token := ""
	for {
		page, next, err := p.Store.ListUserRolesOfRole(ctx, roleID, token, limit)
		if err != nil {
			return nil, err
		}
		ids := make([]int64, len(page))
		for i, ur := range page {
			ids[i] = ur.UserID
		}
		links, err := p.Store.GetLinksAt(ctx, domain.ResourceUser, ids, sp.ID)
		if err != nil {
			return nil, err
		}
		for _, ur := range page {
			if !ur.Provisioned() {
				continue
			}
			if l, ok := links[ur.UserID]; ok && l.Status != domain.StatusDeprovisioned && l.RemoteID != "" {
				out = append(out, scim.Member{Value: l.RemoteID, ExternalID: strconv.FormatInt(ur.UserID, 10)})
			}
		}
		if next == "" {
			return out, nil
		}
		token = next
	}
}

// isRetry reports whether this attempt repeats one that may have reached
// the SP.
func isRetry(ctx context.Context) bool {
	retry, _ := ctx.Value(retryKey{}).(bool)
	return retry
}
