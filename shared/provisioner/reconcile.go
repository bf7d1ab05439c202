package provisioner

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/edu-invite/invite/shared/domain"
	"github.com/edu-invite/invite/shared/scim"
)

// maxReconcileListing bounds the users read from an SP's listing; a larger
// SP is compared resource by resource (a GET per SP-side id).
const maxReconcileListing = 100_000

// Reconcile compares what the service believes one SP holds (its links to
// the SP) with what the SP holds, read from its listing where it offers
// one, else resource by resource by SP-side id, and plans repairs: users
// and groups the SP lost are created again (groups with their members),
// stale user attributes and group members are replaced, and users and
// groups that left the service, or a role that no longer uses the SP, are
// deleted. The plan is carried out unless opts.DryRun, and unless it
// would delete more than opts.MaxDeleteShare of the linked resources.
// Resources at the SP that the service never linked are left alone: the
// SP may hold users of other sources.
//
// It runs beside the deliveries of the queue: each repair reads the
// current state when it is made, and a delivery that races it sets the
// SP right again.
func (p *Provisioner) Reconcile(ctx context.Context, spID string, opts domain.ReconcileOptions) (domain.ReconcileReport, error) {
	rep := domain.ReconcileReport{SP: spID, DryRun: opts.DryRun, Repairs: []domain.Repair{}}
	c, sp, err := p.Clients.Client(ctx, spID)
	if err != nil {
		return rep, err
	}
	userLinks, err := p.Store.ListLinksOfSP(ctx, spID, domain.ResourceUser)
	if err != nil {
		return rep, err
	}
	groupLinks, err := p.Store.ListLinksOfSP(ctx, spID, domain.ResourceGroup)
	if err != nil {
		return rep, err
	}
	listed, err := p.listUsers(ctx, c)
	if err != nil {
		return rep, err
	}
	rep.Listed = listed != nil
	userAt := func(remoteID string) (scim.User, bool, error) {
		if listed != nil {
			u, ok := listed[remoteID]
			return u, ok, nil
		}
		u, err := c.GetUser(ctx, remoteID)
		if scim.IsNotFound(err) {
			return u, false, nil
		}
		return u, err == nil, err
	}

	linkedUsers := 0
	for _, l := range userLinks {
		if l.Status != domain.StatusProvisioned || l.RemoteID == "" {
			continue // never at the SP, or deprovisioned; pending ones are the queue's
		}
		linkedUsers++
		u, err := p.Store.GetUser(ctx, l.LocalID)
		if domain.IsNotFound(err) {
			rep.Repairs = append(rep.Repairs, domain.Repair{Action: domain.RepairDeleteUser, Kind: domain.ResourceUser,
				LocalID: l.LocalID, RemoteID: l.RemoteID, Detail: "the user left the service"})
			continue
		}
		if err != nil {
			return rep, err
		}
		got, ok, err := userAt(l.RemoteID)
		if err != nil {
			return rep, err
		}
		if !ok {
			rep.Repairs = append(rep.Repairs, domain.Repair{Action: domain.RepairCreateUser, Kind: domain.ResourceUser,
				LocalID: l.LocalID, RemoteID: l.RemoteID, Detail: "gone at the SP"})
			continue
		}
		want := scimUser(u, sp)
		if diff := userDiff(got, want); diff != "" {
			rep.Repairs = append(rep.Repairs, domain.Repair{Action: domain.RepairUpdateUser, Kind: domain.ResourceUser,
				LocalID: l.LocalID, RemoteID: l.RemoteID, Detail: diff})
		}
	}
	rep.Users = linkedUsers

	linkedGroups := 0
	for _, l := range groupLinks {
		if l.Status != domain.StatusProvisioned || l.RemoteID == "" {
			continue
		}
		linkedGroups++
		role, err := p.Store.GetRole(ctx, l.LocalID)
		if domain.IsNotFound(err) || (err == nil && !p.roleUsesSP(role, spID)) {
			rep.Repairs = append(rep.Repairs, domain.Repair{Action: domain.RepairDeleteGroup, Kind: domain.ResourceGroup,
				LocalID: l.LocalID, RemoteID: l.RemoteID, Detail: "the role is gone or no longer uses the SP"})
			continue
		}
		if err != nil {
			return rep, err
		}
		got, err := c.GetGroup(ctx, l.RemoteID)
		if scim.IsNotFound(err) {
			rep.Repairs = append(rep.Repairs, domain.Repair{Action: domain.RepairCreateGroup, Kind: domain.ResourceGroup,
				LocalID: l.LocalID, RemoteID: l.RemoteID, Detail: "gone at the SP"})
			continue
		}
		if err != nil {
			return rep, err
		}
		if diff, err := p.membersDiff(ctx, sp.ID, role.ID, got); err != nil {
			return rep, err
		} else if diff != "" || got.DisplayName != role.Name {
			if got.DisplayName != role.Name {
				diff = strings.TrimPrefix(diff+fmt.Sprintf("; displayName %q, want %q", got.DisplayName, role.Name), "; ")
			}
			rep.Repairs = append(rep.Repairs, domain.Repair{Action: domain.RepairReplaceMembers, Kind: domain.ResourceGroup,
				LocalID: l.LocalID, RemoteID: l.RemoteID, Detail: diff})
		}
	}
	rep.Groups = linkedGroups

	share := opts.MaxDeleteShare
	if share <= 0 {
		share = domain.DefaultMaxDeleteShare
	}
	deletes := 0
	for _, r := range rep.Repairs {
		if r.Action == domain.RepairDeleteUser || r.Action == domain.RepairDeleteGroup {
			deletes++
		}
	}
	if total := linkedUsers + linkedGroups; deletes > 0 && float64(deletes) > share*float64(total) {
		rep.Stopped = fmt.Sprintf("the plan deletes %d of the %d resources the service holds at the SP, more than the allowed share %.0f%%; nothing was changed",
			deletes, total, share*100)
		return rep, nil
	}
	if opts.DryRun {
		return rep, nil
	}
	// Users first, so that groups created again find their members.
	order := map[domain.RepairAction]int{domain.RepairCreateUser: 0, domain.RepairUpdateUser: 1, domain.RepairCreateGroup: 2,
		domain.RepairReplaceMembers: 3, domain.RepairDeleteGroup: 4, domain.RepairDeleteUser: 5}
	sort.SliceStable(rep.Repairs, func(i, j int) bool { return order[rep.Repairs[i].Action] < order[rep.Repairs[j].Action] })
	for i := range rep.Repairs {
		if err := p.repair(ctx, c, sp, rep.Repairs[i]); err != nil {
			rep.Repairs[i].Error = err.Error()
			rep.Failed++
			continue
		}
		rep.Repaired++
	}
	p.log().InfoContext(ctx, "reconciled", "sp", spID, "repairs", len(rep.Repairs), "repaired", rep.Repaired, "failed", rep.Failed)
	return rep, nil
}

// repair carries out one planned repair, on the state read now.
func (p *Provisioner) repair(ctx context.Context, c SCIMClient, sp domain.ServiceProvider, r domain.Repair) error {
	switch r.Action {
	case domain.RepairCreateUser:
		_, err := p.recreateUser(ctx, c, sp, r.LocalID, r.RemoteID, true)
		return err
	case domain.RepairUpdateUser:
		return p.updateUser(ctx, c, sp, r.LocalID)
	case domain.RepairCreateGroup:
		_, _, err := p.recreateGroup(ctx, c, sp, r.LocalID, r.RemoteID)
		return err
	case domain.RepairReplaceMembers:
		_, _, err := p.recreateGroup(ctx, c, sp, r.LocalID, r.RemoteID)
		return err
	case domain.RepairDeleteGroup:
		link, _, err := p.activeLink(ctx, domain.ResourceGroup, r.LocalID, sp.ID)
		if err != nil {
			return err
		}
		if err := c.DeleteGroup(ctx, r.RemoteID); err != nil && !scim.IsNotFound(err) {
			return err
		}
		return p.storeDeprovisioned(ctx, link)
	case domain.RepairDeleteUser:
		link, _, err := p.activeLink(ctx, domain.ResourceUser, r.LocalID, sp.ID)
		if err != nil {
			return err
		}
		if err := c.DeleteUser(ctx, r.RemoteID); err != nil && !scim.IsNotFound(err) {
			return err
		}
		return p.storeDeprovisioned(ctx, link)
	}
	return fmt.Errorf("unknown repair %q", r.Action)
}

// roleUsesSP reports whether the role's applications provision the SP.
func (p *Provisioner) roleUsesSP(role domain.Role, spID string) bool {
	if p.RoleSPs == nil {
		return true
	}
	return slices.ContainsFunc(p.RoleSPs(role), func(sp domain.ServiceProvider) bool { return sp.ID == spID })
}

// listUsers reads the SP's users by id from its listing; nil when the SP
// offers none or holds more than maxReconcileListing.
func (p *Provisioner) listUsers(ctx context.Context, c SCIMClient) (map[string]scim.User, error) {
	out := map[string]scim.User{}
	start := 1
	for {
		pg, err := c.ListUsers(ctx, start, listPageSize)
		if scim.IsFilterRefused(err) {
			return nil, nil
		}
		if err != nil {
			return nil, err
		}
		if pg.TotalResults > maxReconcileListing {
			return nil, nil
		}
		for _, u := range pg.Resources {
			out[u.ID] = u
		}
		start += len(pg.Resources)
		if len(pg.Resources) == 0 || start > pg.TotalResults {
			return out, nil
		}
	}
}

// userDiff names every attribute the SP holds that the repair's PUT would
// change, so that the plan says what it rewrites: userName (compared
// case-insensitively, as RFC 7643 says), externalId (also one the service
// never set, as on an account adopted after a 409), displayName and the
// name. Attributes the SP does not keep (absent) are not differences.
func userDiff(got, want scim.User) string {
	var d []string
	if !strings.EqualFold(got.UserName, want.UserName) {
		d = append(d, fmt.Sprintf("userName %q, want %q", got.UserName, want.UserName))
	}
	if got.ExternalID != "" && got.ExternalID != want.ExternalID {
		d = append(d, fmt.Sprintf("externalId %q is replaced by %q", got.ExternalID, want.ExternalID))
	}
	if got.DisplayName != "" && got.DisplayName != want.DisplayName {
		d = append(d, fmt.Sprintf("displayName %q, want %q", got.DisplayName, want.DisplayName))
	}
	if got.Name != nil && want.Name != nil && (got.Name.GivenName != want.Name.GivenName || got.Name.FamilyName != want.Name.FamilyName) {
		d = append(d, fmt.Sprintf("name %q %q, want %q %q", got.Name.GivenName, got.Name.FamilyName, want.Name.GivenName, want.Name.FamilyName))
	}
	return strings.Join(d, "; ")
}

// membersDiff compares the group's members at the SP with the role's
// current members that are at the SP (by SP-side id).
func (p *Provisioner) membersDiff(ctx context.Context, spID string, roleID int64, got scim.Group) (string, error) {
	want := map[string]bool{}
	token := ""
	for {
		page, next, err := p.Store.ListUserRolesOfRole(ctx, roleID, token, p.pageLimit())
		if err != nil {
			return "", err
		}
		for _, ur := range page {
			if !ur.Provisioned() { // delivery's rule: only guests are members at the SPs
				continue
			}
			_, remoteID, err := p.activeLink(ctx, domain.ResourceUser, ur.UserID, spID)
			if err != nil {
				return "", err
			}
			if remoteID != "" {
				want[remoteID] = true
			}
		}
		if next == "" {
			break
		}
		token = next
	}
	have := map[string]bool{}
	var extra, missing, twice []string
	for _, m := range got.Members {
		if have[m.Value] {
			// An SP whose PATCH add is not idempotent, after a retry.
			twice = append(twice, m.Value)
			continue
		}
		have[m.Value] = true
		if !want[m.Value] {
			extra = append(extra, m.Value)
		}
	}
	for id := range want {
		if !have[id] {
			missing = append(missing, id)
		}
	}
	sort.Strings(extra)
	sort.Strings(missing)
	sort.Strings(twice)
	var d []string
	if len(twice) > 0 {
		d = append(d, "members held more than once "+strings.Join(twice, ", "))
	}
	if len(missing) > 0 {
		d = append(d, "missing members "+strings.Join(missing, ", "))
	}
	if len(extra) > 0 {
		d = append(d, "extra members "+strings.Join(extra, ", "))
	}
	return strings.Join(d, "; "), nil
}
