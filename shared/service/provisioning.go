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
	}
	if !allowed {
		return nil, s.refuseUser(ctx, p, user, roles, domain.Forbiddenf("no access to user %d", userID))
	}
	links, err := s.Store.ListLinks(ctx, domain.ResourceUser, userID)
	if err != nil {
		return nil, err
	}
	return statuses(links, expected), nil
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
