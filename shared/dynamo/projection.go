package dynamo

import (
	"maps"
	"slices"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"

	"github.com/edu-invite/invite/shared/domain"
)

// The projection step: the one place that knows which derived copies a
// change of the source items (users, memberships, roles, invitations)
// touches. A write describes what happened as changes, reads what the
// projection needs (readProjectionState, projection_state.go), and adds
// projectChanges's writes to its transaction (txn.apply,
// projection_apply.go); the seed adds them to its batches, the repairs
// compare them with what is stored. The copies it keeps:
//
//   - search words of a user (UWORD#/UEXACT# items) and the user counter;
//   - the role summary on the user item (rs#<roleId>, rsCount, rsVersion);
//   - the member counters of roles (COUNT#members#…);
//   - the organization items of users (USER#<id>/ORG#<guid>) and their
//     counters (COUNT#orgusers#…);
//   - the copy of the user on each membership (members index, gsi4);
//   - the copy of an invitation on each of its role links (INV#…/ROLE#…);
//   - the listing items of roles (RoleListing, RoleWord), the role counts
//     of each scope (COUNT#roles#…) and ROLELISTING/READY
//     (roleListingWrites, roles_sortindex.go).
//
// The membership item carries its user's copy, so membership writes are
// part of the projection too (with their version conditions); the user,
// role and invitation items themselves are the writer's.

type changeKind int

const (
	membershipAdded    changeKind = iota + 1 // a new membership of user
	membershipChanged                        // authority, end date, guest role; listing kept unless user is given
	membershipRemoved                        // a membership deleted at its version
	userCreated                              // a new user (with the memberships added in the same batch)
	userChanged                              // names, e-mail, home, organization, adminship (before → user)
	userDeleted                              // a user deleted with its last memberships
	invitationCreated                        // a new invitation: its role links
	invitationChanged                        // accepted, resent, renewed, repaired: its role links follow
	invitationDeleted                        // withdrawn or purged: its role links go
	membershipRelisted                       // the copy of its user on a membership is stale (user given)
	roleCreated                              // a new role: its member counter, exact at 0, and its listing items
	roleChanged                              // a role renamed, described or moved (roleBefore → role): its listing items
	roleDeleted                              // a role deleted: its listing items go (its member counter stays)
)

// change is one thing that happened to the source items.
type change struct {
	kind       changeKind
	user       domain.User // membership*: the member as it is after the batch (zero: not read); user*: the user
	before     domain.User // userChanged: as stored before
	userRole   domain.UserRole
	invitation domain.Invitation
	role       domain.Role // role*: the role (roleChanged: as written)
	roleBefore domain.Role // roleChanged: as stored before
}

func addedMembership(ur domain.UserRole, u domain.User) change {
	return change{kind: membershipAdded, userRole: ur, user: u}
}

// changedMembership: u is the member when the batch writes the user too
// (the copy follows it); zero keeps the copy the membership was read with.
func changedMembership(ur domain.UserRole, u domain.User) change {
	return change{kind: membershipChanged, userRole: ur, user: u}
}

func removedMembership(ur domain.UserRole) change {
	return change{kind: membershipRemoved, userRole: ur}
}
func createdUser(u domain.User) change { return change{kind: userCreated, user: u} }
func changedUser(before, after domain.User) change {
	return change{kind: userChanged, before: before, user: after}
}
func deletedUser(u domain.User) change { return change{kind: userDeleted, user: u} }
func createdRole(r domain.Role) change { return change{kind: roleCreated, role: r} }
func changedRole(before, after domain.Role) change {
	return change{kind: roleChanged, roleBefore: before, role: after}
}
func deletedRole(r domain.Role) change { return change{kind: roleDeleted, role: r} }
func relistedMembership(ur domain.UserRole, u domain.User) change {
	return change{kind: membershipRelisted, userRole: ur, user: u}
}
func createdInvitation(inv domain.Invitation) change {
	return change{kind: invitationCreated, invitation: inv}
}
func changedInvitation(inv domain.Invitation) change {
	return change{kind: invitationChanged, invitation: inv}
}
func deletedInvitation(inv domain.Invitation) change {
	return change{kind: invitationDeleted, invitation: inv}
}

// copyKind names the kind of item a derived write is, so that a repair
// can take the writes of the copy it repairs.
type copyKind int

const (
	copyMembership copyKind = iota + 1 // a membership with the copy of its user
	copyInvitationLink
	copyWords
	copyOrganization
	copyCounter // a counter written whole (a new role\'s)
	copyRoleListing
	copyRoleListingReady // ROLELISTING/READY, which the index repair writes last
)

// derivedWrite is one Put or Delete of the projection, with the condition
// it holds at and how a failed condition reads.
type derivedWrite struct {
	copy   copyKind
	put    any
	del    *itemKey
	cond   *expression.ConditionBuilder
	onFail func(s *Store) failure
	err    error // the write cannot be made (the transaction fails with it)
}

// counterAdd is what the projection adds to one counter item.
type counterAdd struct {
	key    itemKey
	entity string
	n      int64
}

// projection is what a batch of changes makes of the derived items.
type projection struct {
	writes []derivedWrite
	counts []counterAdd
	// summaries are the role summary changes of users the batch does not
	// create or delete; a writer that writes the user item takes its own
	// (takeSummary), the others are updates of their own.
	summaries map[int64]roleSummaryChange
	// firstRoles are a new user's memberships: its item's complete summary.
	firstRoles map[int64][]domain.UserRole
	// relist are memberships whose copy of their user changes, written at
	// their version after the other writes (as many as the transaction holds).
	relist []domain.UserRole
}

// projectChanges turns a batch of changes into the derived writes, from st.
func projectChanges(st projectionState, changes ...change) projection {
	p := projection{summaries: map[int64]roleSummaryChange{}, firstRoles: map[int64][]domain.UserRole{}}
	created, deleted := map[int64]bool{}, map[int64]bool{}
	users := map[int64]domain.User{} // the users as they are after the batch
	written := map[itemKey]bool{}    // memberships the batch writes itself
	added := map[int64]int{}
	for _, c := range changes {
		switch c.kind {
		case userCreated:
			created[c.user.ID] = true
			users[c.user.ID] = c.user
		case userChanged:
			users[c.user.ID] = c.user
		case userDeleted:
			deleted[c.user.ID] = true
		case membershipAdded:
			added[c.userRole.UserID]++
		}
		if c.kind == membershipAdded || c.kind == membershipChanged || c.kind == membershipRemoved || c.kind == membershipRelisted {
			written[userRoleKey(c.userRole.UserID, c.userRole.RoleID)] = true
		}
	}
	counts := map[itemKey]int64{}
	var countOrder []itemKey
	count := func(key itemKey, entity string, n int64) {
		if _, ok := counts[key]; !ok {
			countOrder = append(countOrder, key)
			p.counts = append(p.counts, counterAdd{key: key, entity: entity})
		}
		counts[key] += n
	}
	summary := func(uid int64, edit func(*roleSummaryChange)) {
		if created[uid] || deleted[uid] {
			return
		}
		c := p.summaries[uid]
		edit(&c)
		p.summaries[uid] = c
	}
	var memberWrites, linkWrites, wordWrites []derivedWrite
	for _, c := range changes {
		ur := c.userRole
		switch c.kind {
		case membershipAdded:
			ur.Listing = domain.ListingOf(c.user)
			memberWrites = append(memberWrites, derivedWrite{copy: copyMembership, put: newUserRoleRecord(ur, 1), cond: condPtr(notExists()),
				onFail: func(*Store) failure {
					return always(domain.Conflictf("user %d already has role %d", ur.UserID, ur.RoleID))
				}})
			count(roleMemberCountShardOf(ur), entityRoleMemberCount, 1)
			for _, side := range sidesOf(ur) {
				count(roleSideCountShardOf(ur, side), entityRoleMemberCount, 1)
			}
			if created[ur.UserID] {
				p.firstRoles[ur.UserID] = append(p.firstRoles[ur.UserID], ur)
			}
			summary(ur.UserID, func(s *roleSummaryChange) {
				s.count++
				if st.summaries[ur.UserID].acceptsNew(added[ur.UserID]) {
					s.set = append(s.set, ur)
				}
			})
			if o := st.orgs[ur.UserID]; o != nil {
				o.addRoles(st.roleOrgs[ur.RoleID], ur.RoleID)
			}
		case membershipChanged:
			if c.user.ID != 0 {
				ur.Listing = domain.ListingOf(c.user)
			}
			key := userRoleKey(ur.UserID, ur.RoleID)
			if before, ok := st.stored[key]; ok {
				// A change of authority or of the guest role moves it
				// between the sides' counters (read at the version the
				// write holds at: another version fails the write).
				for _, side := range sidesOf(before) {
					count(roleSideCountShardOf(before, side), entityRoleMemberCount, -1)
				}
				for _, side := range sidesOf(ur) {
					count(roleSideCountShardOf(ur, side), entityRoleMemberCount, 1)
				}
			}
			memberWrites = append(memberWrites, derivedWrite{copy: copyMembership, put: newUserRoleRecord(ur, ur.Version+1), cond: condPtr(versionIs(ur.Version)),
				onFail: func(s *Store) failure { return s.versionFailure(key, userRoleNotFound(ur.UserID, ur.RoleID)) }})
			summary(ur.UserID, func(s *roleSummaryChange) {
				// rsVersion moves even without an entry, for RepairIndexes.
				if _, ok := st.summaries[ur.UserID].entries[ur.RoleID]; ok {
					s.set = append(s.set, ur)
				}
			})
		case membershipRemoved:
			key := userRoleKey(ur.UserID, ur.RoleID)
			memberWrites = append(memberWrites, derivedWrite{copy: copyMembership, del: &key, cond: condPtr(versionIs(ur.Version)),
				onFail: func(s *Store) failure { return s.versionFailure(key, userRoleNotFound(ur.UserID, ur.RoleID)) }})
			count(roleMemberCountShardOf(ur), entityRoleMemberCount, -1)
			for _, side := range sidesOf(ur) {
				count(roleSideCountShardOf(ur, side), entityRoleMemberCount, -1)
			}
			summary(ur.UserID, func(s *roleSummaryChange) {
				s.remove = append(s.remove, ur.RoleID)
				s.count--
			})
			if o := st.orgs[ur.UserID]; o != nil {
				o.removeRoles(ur.RoleID)
			}
		case userCreated:
			for _, rec := range newUserWordRecords(c.user) {
				wordWrites = append(wordWrites, derivedWrite{copy: copyWords, put: rec})
			}
			count(userCountKey(c.user.ID), entityUserCount, 1)
		case userChanged:
			wordWrites = append(wordWrites, wordChanges(c.before, c.user)...)
			if domain.ListingOf(c.before) != domain.ListingOf(c.user) {
				for _, stored := range st.memberships[c.user.ID] {
					if !written[userRoleKey(stored.UserID, stored.RoleID)] {
						stored.Listing = domain.ListingOf(c.user)
						p.relist = append(p.relist, stored)
					}
				}
			}
		case userDeleted:
			for _, rec := range newUserWordRecords(c.user) {
				key := rec.itemKey
				wordWrites = append(wordWrites, derivedWrite{copy: copyWords, del: &key})
			}
			count(userCountKey(c.user.ID), entityUserCount, -1)
			if o := st.orgs[c.user.ID]; o != nil {
				o.deleteAll()
			}
		case membershipRelisted:
			ur.Listing = domain.ListingOf(c.user)
			p.relist = append(p.relist, ur)
		case roleCreated, roleChanged, roleDeleted:
			before, after := &c.roleBefore, &c.role
			switch c.kind {
			case roleCreated:
				before = nil
				for _, rec := range newRoleMemberCountRecords(c.role.ID) {
					linkWrites = append(linkWrites, derivedWrite{copy: copyCounter, put: rec})
				}
			case roleDeleted:
				before, after = &c.role, nil
			}
			writes, scopes := roleListingWrites(before, after)
			linkWrites = append(linkWrites, writes...)
			for _, sc := range scopes {
				count(sc.key, sc.entity, sc.n)
			}
		case invitationCreated, invitationChanged:
			for _, roleID := range distinctIDs(c.invitation.RoleIDs) {
				linkWrites = append(linkWrites, derivedWrite{copy: copyInvitationLink, put: newInvitationRoleRecord(c.invitation, roleID)})
			}
		case invitationDeleted:
			for _, roleID := range distinctIDs(c.invitation.RoleIDs) {
				key := invitationRoleKey(c.invitation.ID, roleID)
				linkWrites = append(linkWrites, derivedWrite{copy: copyInvitationLink, del: &key})
			}
		}
	}
	p.writes = append(append(append(p.writes, memberWrites...), linkWrites...), wordWrites...)
	for _, uid := range slices.Sorted(maps.Keys(st.orgs)) {
		o := st.orgs[uid]
		if u, ok := users[uid]; ok && !deleted[uid] {
			o.setUser(u)
		}
		writes, orgCounts := userOrgWrites(o)
		p.writes = append(p.writes, writes...)
		for _, key := range slices.SortedFunc(maps.Keys(orgCounts), compareKeys) {
			count(key, entityOrgUserCount, orgCounts[key])
		}
	}
	for i := range p.counts {
		p.counts[i].n = counts[p.counts[i].key]
	}
	p.counts = slices.DeleteFunc(p.counts, func(c counterAdd) bool { return c.n == 0 })
	return p
}

// wordChanges are the search item writes of a user's change: nothing when
// its words, identifiers and sort name stay; otherwise every current item
// again (each carries the sort name and words) and the deletion of those
// no longer there.
func wordChanges(before, after domain.User) []derivedWrite {
	old, now := newUserWordRecords(before), newUserWordRecords(after)
	if slices.EqualFunc(old, now, sameSearchItem) {
		return nil
	}
	kept := map[itemKey]bool{}
	var out []derivedWrite
	for _, rec := range now {
		kept[rec.itemKey] = true
	}
	for _, rec := range old {
		if !kept[rec.itemKey] {
			key := rec.itemKey
			out = append(out, derivedWrite{copy: copyWords, del: &key})
		}
	}
	for _, rec := range now {
		out = append(out, derivedWrite{copy: copyWords, put: rec})
	}
	return out
}

func notExists() expression.ConditionBuilder {
	return expression.AttributeNotExists(expression.Name(attrPK))
}

func condPtr(c expression.ConditionBuilder) *expression.ConditionBuilder { return &c }

func compareKeys(a, b itemKey) int {
	if a.PK != b.PK {
		if a.PK < b.PK {
			return -1
		}
		return 1
	}
	switch {
	case a.SK < b.SK:
		return -1
	case a.SK > b.SK:
		return 1
	}
	return 0
}

// only keeps the writes of one kind of copy and the counters of one
// entity (a repair's part of a projection).
func (p projection) only(kind copyKind, counter string) projection {
	out := projection{summaries: map[int64]roleSummaryChange{}, firstRoles: p.firstRoles}
	for _, w := range p.writes {
		if w.copy == kind || w.err != nil {
			out.writes = append(out.writes, w)
		}
	}
	for _, c := range p.counts {
		if c.entity == counter {
			out.counts = append(out.counts, c)
		}
	}
	return out
}
