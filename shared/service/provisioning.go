package service

import (
	"context"
	"sort"
	"time"

	"github.com/edu-invite/invite/shared/auth"
	"github.com/edu-invite/invite/shared/domain"
)

// ProvisioningStatus is how a user or group stands at one SP.
type ProvisioningStatus struct {
	SP            string
	Status        domain.ProvisioningStatus
	RemoteID      string
	ProvisionedAt *time.Time
	UpdatedAt     time.Time
	Attempts      int
	LastError     string
	// GroupFailed: the user or member is failed because a group of their
	// role failed at this SP (LastError is the group's reason), while
	// their own delivery waits for it.
	GroupFailed bool
}

// failedGroups are the groups of roles that failed, by SP: a user cannot
// be a member at an SP where the group failed, so their pending state
// there is failed too, with the group's reason. Pages and the API show
// the same state (one truth).
type failedGroups map[string]domain.SPLink

func (f failedGroups) add(links []domain.SPLink) {
	for _, l := range links {
		if l.Kind == domain.ResourceGroup && l.Status == domain.StatusFailed {
			if _, seen := f[l.SPID]; !seen {
				f[l.SPID] = l
			}
		}
	}
}

// apply turns a pending or provisioned member at an SP where a group
// failed into failed, with that reason; a user's own failure stays.
func (f failedGroups) apply(sts []ProvisioningStatus, onlyPending bool) []ProvisioningStatus {
	for i, st := range sts {
		g, failed := f[st.SP]
		if !failed || st.Status == domain.StatusFailed || st.Status == domain.StatusDeprovisioned ||
			(onlyPending && st.Status != domain.StatusPending) {
			continue
		}
		sts[i].Status, sts[i].LastError, sts[i].GroupFailed = domain.StatusFailed, g.LastError, true
	}
	return sts
}

// UserProvisioning is the status of a user at every SP that should know the
// user (the SPs of the applications of the user's roles) or knew them.
// Where no delivery has been made yet the status is pending.
func (s *Service) UserProvisioning(ctx context.Context, p *auth.Principal, userID int64) ([]ProvisioningStatus, error) {
	if p == nil {
		return nil, domain.Unauthenticatedf("authentication required")
	}
	user, err := s.Store.GetUser(ctx, userID)
	if err != nil {
		return nil, err // an unknown user is 404, for every caller
	}
	urs, err := s.Store.ListUserRolesOfUser(ctx, userID)
	if err != nil {
		return nil, err
	}
	allowed := p.SuperUser || (p.User != nil && p.User.ID == userID)
	expected := map[string]bool{}
	var roles []domain.Role
	var roleIDs []int64
	for _, ur := range urs {
		role, err := s.Store.GetRole(ctx, ur.RoleID)
		if domain.IsNotFound(err) {
			continue
		}
		if err != nil {
			return nil, err
		}
		allowed = allowed || p.CanManageRole(role)
		roles = append(roles, role)
		for _, sp := range s.Registry.SPsOfRole(role) {
			expected[sp.ID] = true
		}
		roleIDs = append(roleIDs, role.ID)
	}
	if !allowed {
		return nil, s.refuseUser(ctx, p, user, roles, domain.Forbiddenf("no access to user %d", userID))
	}
	links, err := s.Store.ListLinks(ctx, domain.ResourceUser, userID)
	if err != nil {
		return nil, err
	}
	groups := failedGroups{}
	for _, id := range roleIDs {
		gl, err := s.Store.ListLinks(ctx, domain.ResourceGroup, id)
		if err != nil {
			return nil, err
		}
		groups.add(gl)
	}
	// The user itself may be at the SP; what waits for the failed group
	// is their membership. Only a pending user becomes failed here.
	return groups.apply(statuses(links, expected), true), nil
}

// RoleProvisioning is the status of a role's group at each SP of its
// applications. For a deleted role, a super user sees the SPs where its
// group is still there (its deletion failed or is being retried): a failed
// group deletion shows on the role's status, not only in the dead letters.
// Its managers are gone with the role, so others get not found.
func (s *Service) RoleProvisioning(ctx context.Context, p *auth.Principal, roleID int64) ([]ProvisioningStatus, error) {
	role, err := s.GetRole(ctx, p, roleID)
	if domain.IsNotFound(err) && p != nil && p.SuperUser {
		return s.deletedRoleProvisioning(ctx, roleID, err)
	}
	if err != nil {
		return nil, err
	}
	expected := map[string]bool{}
	for _, sp := range s.Registry.SPsOfRole(role) {
		expected[sp.ID] = true
	}
	links, err := s.Store.ListLinks(ctx, domain.ResourceGroup, roleID)
	if err != nil {
		return nil, err
	}
	return statuses(links, expected), nil
}

// deletedRoleProvisioning lists the SPs where the group of a deleted role
// was not deprovisioned; with none, the role is simply not found (notFound).
func (s *Service) deletedRoleProvisioning(ctx context.Context, roleID int64, notFound error) ([]ProvisioningStatus, error) {
	links, err := s.Store.ListLinks(ctx, domain.ResourceGroup, roleID)
	if err != nil {
		return nil, err
	}
	left := links[:0:0]
	for _, l := range links {
		if l.Status != domain.StatusDeprovisioned {
			left = append(left, l)
		}
	}
	if len(left) == 0 {
		return nil, notFound
	}
	return statuses(left, nil), nil
}

func statuses(links []domain.SPLink, expected map[string]bool) []ProvisioningStatus {
	out := []ProvisioningStatus{}
	for _, l := range links {
		delete(expected, l.SPID)
		out = append(out, ProvisioningStatus{SP: l.SPID, Status: l.Status, RemoteID: l.RemoteID, ProvisionedAt: l.ProvisionedAt,
			UpdatedAt: l.UpdatedAt, Attempts: l.Attempts, LastError: l.LastError})
	}
	for sp := range expected {
		out = append(out, ProvisioningStatus{SP: sp, Status: domain.StatusPending})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].SP < out[j].SP })
	return out
}
