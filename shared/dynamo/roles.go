package dynamo

import (
	"cmp"
	"context"
	"slices"

	"github.com/edu-invite/invite/shared/domain"
)

// CreateRole writes the role at version 1 with its unique name, its
// application links and its deliveries, in one transaction.
func (s *Store) CreateRole(ctx context.Context, r domain.Role, deliveries []domain.Delivery) error {
	if err := checkRole(r); err != nil {
		return err
	}
	t := s.newTxn()
	role := newRoleRecord(r, 1)
	role.MembersListed, role.MembersSided = true, true // no members yet: the indexes are complete
	t.putNew(role, always(domain.Conflictf("role %d already exists", r.ID)))
	t.putNew(newRoleNameRecord(r), always(domain.Conflictf("role name %q is already taken", r.Name)))
	for _, manageID := range r.ManageIDs() {
		t.put(newAppLinkRecord(r, manageID))
	}
	t.applyChanges(createdRole(r))
	t.putDeliveries(deliveries)
	return t.commit(ctx)
}

// UpdateRole replaces the role if its stored version is r.Version. It reads
// the stored role first to learn the old name and applications; the version
// condition makes the read and the write one consistent step. A role moved
// to another organization (or whose earlier move was not finished) is
// marked; MoveRoleMembers then carries its members (roles_move.go).
func (s *Store) UpdateRole(ctx context.Context, r domain.Role, deliveries []domain.Delivery) error {
	_, err := s.updateRole(ctx, r, deliveries)
	return err
}

// updateRole is UpdateRole's transaction; pending: the role is marked
// organizationsPending, its members' organization items are to rebuild.
func (s *Store) updateRole(ctx context.Context, r domain.Role, deliveries []domain.Delivery) (pending bool, err error) {
	if err := checkRole(r); err != nil {
		return false, err
	}
	var rec roleRecord
	found, err := s.getItem(ctx, roleKey(r.ID), &rec)
	if err != nil {
		return false, err
	}
	if !found {
		return false, roleNotFound(r.ID)
	}
	stored, err := rec.domain()
	if err != nil {
		return false, err
	}
	if stored.Version != r.Version {
		return false, domain.ErrVersionConflict
	}
	t := s.newTxn()
	role := newRoleRecord(r, r.Version+1)
	role.MembersListed, role.MembersSided = rec.MembersListed, rec.MembersSided
	role.OrganizationsPending = rec.OrganizationsPending || stored.OrganizationGUID != r.OrganizationGUID
	t.putVersion(role, r.Version, s.versionFailure(roleKey(r.ID), roleNotFound(r.ID)))
	if domain.NormalizedRoleName(stored.Name) != domain.NormalizedRoleName(r.Name) {
		t.delete(roleNameKey(stored.Name), nil, nil)
		t.putNew(newRoleNameRecord(r), always(domain.Conflictf("role name %q is already taken", r.Name)))
	}
	oldApps, newApps := stored.ManageIDs(), r.ManageIDs()
	for _, manageID := range oldApps {
		if !slices.Contains(newApps, manageID) {
			t.delete(appLinkKey(manageID, r.ID), nil, nil)
		}
	}
	for _, manageID := range newApps {
		// Kept links are rewritten only when the organization they carry changed.
		if !slices.Contains(oldApps, manageID) || stored.OrganizationGUID != r.OrganizationGUID {
			t.put(newAppLinkRecord(r, manageID))
		}
	}
	t.applyChanges(changedRole(stored, r))
	t.putDeliveries(deliveries)
	if err := t.commit(ctx); err != nil {
		return false, err
	}
	return role.OrganizationsPending, nil
}

// DeleteRole removes the role if its stored version is r.Version, with its
// name and application links as stored, and writes the deliveries.
func (s *Store) DeleteRole(ctx context.Context, r domain.Role, deliveries []domain.Delivery) error {
	stored, err := s.GetRole(ctx, r.ID)
	if err != nil {
		return err
	}
	if stored.Version != r.Version {
		return domain.ErrVersionConflict
	}
	t := s.newTxn()
	version := versionIs(r.Version)
	t.delete(roleKey(r.ID), &version, s.versionFailure(roleKey(r.ID), roleNotFound(r.ID)))
	t.delete(roleNameKey(stored.Name), nil, nil)
	for _, manageID := range stored.ManageIDs() {
		t.delete(appLinkKey(manageID, r.ID), nil, nil)
	}
	t.applyChanges(deletedRole(stored))
	t.put(newRoleDeletionRecord(stored)) // until its memberships are gone
	// The member counter stays: the role's memberships are deleted after
	// it (in pages of 25), each transaction taking its count down to 0.
	t.putDeliveries(deliveries)
	return t.commit(ctx)
}

// GetRole reads one role, consistently: the one read of a role item is
// getRoleRecord's.
func (s *Store) GetRole(ctx context.Context, roleID int64) (domain.Role, error) {
	return s.getRoleRecord(ctx, roleID)
}

// GetRoles reads the roles with the given ids, in the order of the ids;
// unknown ids and repeats are left out.
func (s *Store) GetRoles(ctx context.Context, ids []int64) ([]domain.Role, error) {
	var distinct []int64
	var keys []itemKey
	seen := make(map[int64]bool, len(ids))
	for _, roleID := range ids {
		if !seen[roleID] {
			seen[roleID] = true
			distinct = append(distinct, roleID)
			keys = append(keys, roleKey(roleID))
		}
	}
	items, err := s.batchGet(ctx, keys)
	if err != nil {
		return nil, err
	}
	byID := make(map[int64]domain.Role, len(items))
	for _, av := range items {
		r, err := decodeRole(av)
		if err != nil {
			return nil, err
		}
		byID[r.ID] = r
	}
	roles := make([]domain.Role, 0, len(byID))
	for _, roleID := range distinct {
		if r, ok := byID[roleID]; ok {
			roles = append(roles, r)
		}
	}
	return roles, nil
}

// ListRolesByManageID returns the roles used by an application, by name.
func (s *Store) ListRolesByManageID(ctx context.Context, manageID string) ([]domain.Role, error) {
	in, err := s.partitionQuery("", appLinkPK(manageID), sortKeyPrefix(prefixRole))
	if err != nil {
		return nil, err
	}
	items, err := s.queryAll(ctx, in)
	if err != nil {
		return nil, err
	}
	ids := make([]int64, 0, len(items))
	for _, av := range items {
		var link appLinkRecord
		if err := unmarshal(av, &link); err != nil {
			return nil, err
		}
		ids = append(ids, link.RoleID)
	}
	roles, err := s.GetRoles(ctx, ids)
	if err != nil {
		return nil, err
	}
	sortByName(roles)
	return roles, nil
}

// ListRolesByOrganization returns the roles of an organization, by name.
func (s *Store) ListRolesByOrganization(ctx context.Context, organizationGUID string) ([]domain.Role, error) {
	if organizationGUID == "" {
		return nil, nil
	}
	in, err := s.partitionQuery(indexGSI1, orgPK(organizationGUID), sortKeyPrefix(prefixRole))
	if err != nil {
		return nil, err
	}
	items, err := s.queryAll(ctx, in)
	if err != nil {
		return nil, err
	}
	return decodeAll(items, decodeRole)
}

func checkRole(r domain.Role) error {
	if r.ID == 0 {
		return domain.Invalidf("role without id")
	}
	if domain.NormalizedRoleName(r.Name) == "" {
		return domain.Invalidf("role name is required")
	}
	return nil
}

func roleNotFound(roleID int64) error { return domain.NotFoundf("role %d not found", roleID) }

func sortByName(roles []domain.Role) {
	slices.SortFunc(roles, func(a, b domain.Role) int {
		return cmp.Or(
			cmp.Compare(domain.NormalizedRoleName(a.Name), domain.NormalizedRoleName(b.Name)),
			cmp.Compare(a.ID, b.ID),
		)
	})
}
