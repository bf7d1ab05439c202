package dynamo

import (
	"context"
	"slices"

	"github.com/edu-invite/invite/shared/domain"
)

// What the projection step (projection.go) needs of the stored items, and
// reading it: a write hands its changes to readProjectionState before
// projectChanges.

// projectionState is what the projection needs of the stored items, read
// by readProjectionState (or given by a writer that read it anyway).
type projectionState struct {
	orgs        map[int64]*userOrgs         // users whose organization items a change touches, as read
	roleOrgs    map[int64]string            // organization of each role a membership is added to
	summaries   map[int64]userRolesState    // users whose role summary entries a change sets, as read
	memberships map[int64][]domain.UserRole // users whose copy on their memberships changes: those memberships
	stored      map[itemKey]domain.UserRole // changed memberships as stored (their side counters follow them)
}

func newProjectionState() projectionState {
	return projectionState{orgs: map[int64]*userOrgs{}, roleOrgs: map[int64]string{},
		summaries: map[int64]userRolesState{}, memberships: map[int64][]domain.UserRole{}, stored: map[itemKey]domain.UserRole{}}
}

// needs says which stored items the changes make the projection read.
type needs struct {
	orgs        []int64   // users whose organization items to read
	newOrgs     []int64   // new users: no items yet
	roles       []int64   // roles whose organization to read
	summaries   []int64   // users whose summary to read
	memberships []int64   // users whose memberships to read
	changed     []itemKey // changed memberships to read as stored
}

func needsOf(changes []change) needs {
	var n needs
	created := map[int64]bool{}
	for _, c := range changes {
		if c.kind == userCreated {
			created[c.user.ID] = true
			n.newOrgs = appendNew(n.newOrgs, c.user.ID)
		}
	}
	for _, c := range changes {
		uid := c.userRole.UserID
		switch c.kind {
		case membershipAdded:
			n.roles = appendNew(n.roles, c.userRole.RoleID)
			if !created[uid] {
				n.orgs = appendNew(n.orgs, uid)
				n.summaries = appendNew(n.summaries, uid)
			}
		case membershipChanged:
			if key := userRoleKey(uid, c.userRole.RoleID); !slices.Contains(n.changed, key) {
				n.changed = append(n.changed, key)
			}
			if !created[uid] {
				n.summaries = appendNew(n.summaries, uid)
			}
		case membershipRemoved:
			n.orgs = appendNew(n.orgs, uid)
		case userChanged:
			if listedDifferently(c.before, c.user) {
				n.orgs = appendNew(n.orgs, c.user.ID)
			}
			if domain.ListingOf(c.before) != domain.ListingOf(c.user) {
				n.memberships = appendNew(n.memberships, c.user.ID)
			}
		case userDeleted:
			n.orgs = appendNew(n.orgs, c.user.ID)
		}
	}
	return n
}

func appendNew(ids []int64, id int64) []int64 {
	if slices.Contains(ids, id) {
		return ids
	}
	return append(ids, id)
}

// readProjectionState reads what the changes' projection needs and st does
// not hold yet: organization items (one Query per user), the roles'
// organizations (one BatchGetItem), role summaries (one GetItem per user)
// and the memberships of users whose copy changes (one Query per user).
func (s *Store) readProjectionState(ctx context.Context, st projectionState, changes []change) (projectionState, error) {
	n := needsOf(changes)
	for _, uid := range n.newOrgs {
		if st.orgs[uid] == nil {
			st.orgs[uid] = newUserOrgs(uid)
		}
	}
	for _, uid := range n.orgs {
		if st.orgs[uid] != nil {
			continue
		}
		o, err := s.readUserOrgs(ctx, uid)
		if err != nil {
			return st, err
		}
		st.orgs[uid] = o
	}
	var roles []int64
	for _, roleID := range n.roles {
		if _, ok := st.roleOrgs[roleID]; !ok {
			roles = append(roles, roleID)
		}
	}
	if len(roles) > 0 {
		orgs, err := s.organizationsOfRoles(ctx, roles)
		if err != nil {
			return st, err
		}
		for _, roleID := range roles {
			st.roleOrgs[roleID] = orgs[roleID] // "" for a role without one
		}
	}
	for _, uid := range n.summaries {
		if _, ok := st.summaries[uid]; ok {
			continue
		}
		summary, err := s.roleSummaryOf(ctx, uid)
		if err != nil {
			return st, err
		}
		st.summaries[uid] = summary
	}
	var changed []itemKey
	for _, key := range n.changed {
		if _, ok := st.stored[key]; !ok {
			changed = append(changed, key)
		}
	}
	if len(changed) > 0 {
		items, err := s.batchGet(ctx, changed)
		if err != nil {
			return st, err
		}
		urs, err := decodeUserRoles(items)
		if err != nil {
			return st, err
		}
		if st.stored == nil {
			st.stored = map[itemKey]domain.UserRole{}
		}
		for _, ur := range urs {
			st.stored[userRoleKey(ur.UserID, ur.RoleID)] = ur
		}
	}
	for _, uid := range n.memberships {
		if _, ok := st.memberships[uid]; ok {
			continue
		}
		items, err := s.userPartition(ctx, userPK(uid), sortKeyPrefix(prefixUserRole))
		if err != nil {
			return st, err
		}
		urs, err := decodeUserRoles(items)
		if err != nil {
			return st, err
		}
		st.memberships[uid] = urs
	}
	return st, nil
}
