package service

import (
	"context"
	"errors"
	"reflect"
	"strings"

	"github.com/edu-invite/invite/shared/auth"
	"github.com/edu-invite/invite/shared/domain"
)

// UpdateRole changes a role (R2): name, description, application usages,
// expiry defaults and flags. Who may: whoever may manage the role
// (auth.CanManageRole); the applications of a caller whose only right is
// MANAGER on the role, and the organization of anyone but a super user, are
// kept as they are. The role's id, short name, URN and identifier never change,
// so the group keeps its externalId at every SP. SCIM effects, in the same
// transaction: a rename sends group.update to every SP of the role; an SP
// new to the role gets group.update (created with the current members); an
// SP no longer used gets group.delete.
func (s *Service) UpdateRole(ctx context.Context, p *auth.Principal, id int64, in RoleInput) (domain.Role, error) {
	if p == nil {
		return domain.Role{}, domain.Unauthenticatedf("authentication required")
	}
	if id <= 0 {
		return domain.Role{}, domain.Invalidf("id is required")
	}
	stored, err := s.Store.GetRole(ctx, id)
	if err != nil {
		return domain.Role{}, err
	}
	if !p.CanManageRole(stored) {
		return domain.Role{}, s.refuseRole(ctx, p, stored, domain.Forbiddenf("no access to role %d", id))
	}
	updated, err := s.roleFromInput(in, stored.DefaultExpiryDate)
	if err != nil {
		return domain.Role{}, err
	}
	// As in the reference, what a caller may not change is kept, not
	// refused: only super users move a role to another organization, and a
	// manager's change of the applications is ignored.
	updated.OrganizationGUID = stored.OrganizationGUID
	if org := strings.TrimSpace(in.OrganizationGUID); org != "" && p.SuperUser {
		updated.OrganizationGUID = org
	}
	if !auth.MayChangeRoleApplications(p, stored) {
		updated.ApplicationUsages = stored.ApplicationUsages
	}
	if err := checkApplicationsOfOrganization(updated); err != nil {
		return domain.Role{}, err
	}
	updated.ID, updated.ShortName, updated.URN, updated.Identifier = stored.ID, stored.ShortName, stored.URN, stored.Identifier
	updated.TeamsOrigin, updated.RemoteAPIUser = stored.TeamsOrigin, stored.RemoteAPIUser
	updated.CRMRoleID, updated.CRMRoleName, updated.CRMRoleAbbrevation = stored.CRMRoleID, stored.CRMRoleName, stored.CRMRoleAbbrevation
	updated.Version = stored.Version
	now := s.now()
	updated.Auditable = domain.Auditable{CreatedAt: stored.Auditable.CreatedAt, CreatedBy: stored.Auditable.CreatedBy, UpdatedAt: now, UpdatedBy: p.Name}
	for i := range updated.ApplicationUsages {
		updated.ApplicationUsages[i].ID = int64(i + 1)
	}

	if sameRoleSettings(stored, updated) {
		// Saving a role unchanged changes nothing: no write, no SCIM
		// delivery, no audit entry.
		stored.UserRoleCount = s.roleMemberCount(ctx, id)
		return stored, nil
	}
	deliveries := s.roleUpdateDeliveries(ctx, stored, updated)
	if err := s.Store.UpdateRole(ctx, updated, deliveries); err != nil {
		if errors.Is(err, domain.ErrVersionConflict) {
			return domain.Role{}, domain.Conflictf("role %d was changed by someone else; read it again", id)
		}
		return domain.Role{}, err
	}
	updated.Version++
	s.dispatch(ctx, deliveries)
	s.recordRoleUpdate(ctx, p, stored, updated)
	if err := s.carryMembersOfRole(ctx, p, id); err != nil {
		return domain.Role{}, err
	}
	updated.UserRoleCount = s.roleMemberCount(ctx, id)
	return updated, nil
}

// roleMemberCount is the role's member count for an answer; a count that
// cannot be read answers 0 rather than failing the change before it.
func (s *Service) roleMemberCount(ctx context.Context, id int64) int64 {
	n, err := s.Store.CountUserRolesOfRole(ctx, id)
	if err != nil {
		return 0
	}
	return n
}

// sameRoleSettings tells whether updated holds exactly what stored holds,
// apart from who changed it when, its version and its member count.
func sameRoleSettings(stored, updated domain.Role) bool {
	if (stored.DefaultExpiryDate == nil) != (updated.DefaultExpiryDate == nil) ||
		stored.DefaultExpiryDate != nil && !stored.DefaultExpiryDate.Equal(*updated.DefaultExpiryDate) {
		return false
	}
	strip := func(r domain.Role) domain.Role {
		r.Auditable, r.Version, r.UserRoleCount, r.DefaultExpiryDate = domain.Auditable{}, 0, 0, nil
		if len(r.ApplicationUsages) == 0 {
			r.ApplicationUsages = nil
		}
		return r
	}
	return reflect.DeepEqual(strip(stored), strip(updated))
}

func (s *Service) roleUpdateDeliveries(ctx context.Context, stored, updated domain.Role) []domain.Delivery {
	renamed := stored.Name != updated.Name
	before := map[string]bool{}
	for _, sp := range s.Registry.SPsOfRole(stored) {
		before[sp.ID] = true
	}
	after := map[string]bool{}
	var deliveries []domain.Delivery
	for _, sp := range s.Registry.SPsOfRole(updated) {
		after[sp.ID] = true
		if !before[sp.ID] || renamed {
			deliveries = append(deliveries, s.newDelivery(ctx, sp, domain.DeliverGroupUpdate, 0, updated.ID))
		}
	}
	for _, sp := range s.Registry.SPsOfRole(stored) {
		if !after[sp.ID] {
			d := s.newDelivery(ctx, sp, domain.DeliverGroupDelete, 0, updated.ID)
			d.ExternalID = stored.URN
			deliveries = append(deliveries, d)
		}
	}
	return deliveries
}
