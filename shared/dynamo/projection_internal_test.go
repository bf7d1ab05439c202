package dynamo

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/edu-invite/invite/shared/domain"
)

// describe is a projection in a few comparable lines: the non-word writes
// ("put|del <pk> <sk>", conditional ones marked "?"), then the number of
// word puts and deletes (words and whole addresses), the counter changes, the role summary changes, the
// new users' first roles and the relisted memberships.
func describe(p projection) []string {
	var out []string
	words := map[string]int{}
	for _, w := range p.writes {
		op, key := "put", itemKey{}
		switch {
		case w.err != nil:
			out = append(out, "error "+w.err.Error())
			continue
		case w.del != nil:
			op, key = "del", *w.del
		default:
			key = keyOf(w.put)
		}
		if w.copy == copyWords {
			words[op]++
			continue
		}
		if w.cond != nil {
			op += "?"
		}
		out = append(out, op+" "+key.PK+" "+key.SK)
	}
	if len(words) > 0 {
		out = append(out, fmt.Sprintf("words put %d del %d", words["put"], words["del"]))
	}
	for _, c := range p.counts {
		out = append(out, fmt.Sprintf("count %s %+d", c.key.PK, c.n))
	}
	for _, uid := range slices.Sorted(maps.Keys(p.summaries)) {
		c := p.summaries[uid]
		var set []string
		for _, ur := range c.set {
			set = append(set, id(ur.RoleID))
		}
		out = append(out, fmt.Sprintf("summary %d set [%s] remove %v count %+d", uid, strings.Join(set, " "), c.remove, c.count))
	}
	for _, uid := range slices.Sorted(maps.Keys(p.firstRoles)) {
		out = append(out, fmt.Sprintf("first roles of %d: %d", uid, len(p.firstRoles[uid])))
	}
	for _, ur := range p.relist {
		out = append(out, fmt.Sprintf("relist %d/%d as %q", ur.UserID, ur.RoleID, ur.Listing.Name))
	}
	return out
}

func keyOf(record any) itemKey {
	switch rec := record.(type) {
	case userRoleRecord:
		return rec.itemKey
	case userOrgRecord:
		return rec.itemKey
	case invitationRoleRecord:
		return rec.itemKey
	case roleMemberCountRecord:
		return rec.itemKey
	case userWordRecord:
		return rec.itemKey
	case roleListingRecord:
		return rec.itemKey
	case roleWordRecord:
		return rec.itemKey
	case roleReadyRecord:
		return rec.itemKey
	}
	return itemKey{PK: fmt.Sprintf("%T", record)}
}

// TestProjectChanges: each kind of change, alone or in the batch a write
// makes of it, projects to exactly the derived writes its copies need.
func TestProjectChanges(t *testing.T) {
	now := time.Date(2025, 3, 14, 9, 0, 0, 0, time.UTC)
	marie := domain.User{ID: 10, Sub: "s10", GivenName: "Marie", FamilyName: "Curie", Name: "Marie Curie", Email: "mc@lab.example", CreatedAt: now}
	renamed := marie
	renamed.Name, renamed.FamilyName, renamed.Version = "Marie Sklodowska", "Sklodowska", 1
	active := marie
	active.LastActivity = now.Add(time.Hour)
	ur := func(roleID int64) domain.UserRole {
		return domain.UserRole{ID: 100 + roleID, UserID: 10, RoleID: roleID, Authority: domain.Guest, Version: 1}
	}
	storedOrgs := func(roles ...int64) *userOrgs {
		o := newUserOrgs(10)
		rec := o.item("org-1")
		rec.RoleIDs, rec.Version = roles, 3
		rec.GSI1PK, rec.GSI1SK, rec.Words = orgUsersPK("org-1"), userListingSK(marie), userWords(marie)
		o.stored["org-1"] = rec
		rec.RoleIDs = slices.Clone(roles)
		o.next["org-1"] = rec
		return o
	}
	summaryOf := func(roles ...int64) userRolesState {
		st := userRolesState{complete: true, count: int64(len(roles)), entries: map[int64]roleSummaryRecord{}}
		for _, r := range roles {
			st.entries[r] = newRoleSummaryRecord(ur(r))
		}
		return st
	}
	physics := domain.Role{ID: 7, Name: "Physics", Description: "Quantum lab", OrganizationGUID: "org-1", Auditable: domain.Auditable{CreatedAt: now}, Version: 1}
	renamedRole := physics
	renamedRole.Name = "Applied physics"
	moved := physics
	moved.OrganizationGUID = "org-2"
	otherApps := physics
	otherApps.ApplicationUsages = []domain.ApplicationUsage{{Application: domain.Application{ManageID: "app-9"}}}
	first := physics
	first.ID, first.OrganizationGUID = 1, ""
	wordKey := func(org, word string, roleID int64) string {
		return fmt.Sprintf("RWORD#%s#%s %s#%019d", org, word[:1], word, roleID)
	}
	inv := domain.Invitation{ID: 5, RoleIDs: []int64{1, 2, 1}, Status: domain.InvitationOpen, CreatedAt: now, ExpiryDate: now}

	for _, tc := range []struct {
		name    string
		state   func(st projectionState)
		changes []change
		want    []string
	}{{
		name:    "a new user accepts two roles, one of an organization",
		state:   func(st projectionState) { st.orgs[10] = newUserOrgs(10); st.roleOrgs[1] = "org-1" },
		changes: []change{createdUser(marie), changedInvitation(inv), addedMembership(ur(1), marie), addedMembership(ur(2), marie)},
		want: []string{"put? USER#10 UR#1", "put? USER#10 UR#2", "put INV#5 ROLE#1", "put INV#5 ROLE#2", "put? USER#10 ORG#org-1",
			"words put 10 del 0", // 5 words, the address, 4 first letters
			"count COUNT#users#10 +1", "count COUNT#members#1#2 +1", "count COUNT#guests#1#2 +1", "count COUNT#members#2#2 +1",
			"count COUNT#guests#2#2 +1", "count COUNT#orgusers#org-1#10 +1",
			"first roles of 10: 2"},
	}, {
		name: "a known user gets a role of the organization it belongs to",
		state: func(st projectionState) {
			st.orgs[10] = storedOrgs(1)
			st.roleOrgs[3] = "org-1"
			st.summaries[10] = summaryOf(1)
		},
		changes: []change{changedUser(marie, marie), addedMembership(ur(3), marie)},
		want: []string{"put? USER#10 UR#3", "put? USER#10 ORG#org-1", "count COUNT#members#3#2 +1",
			"count COUNT#guests#3#2 +1", "summary 10 set [3] remove [] count +1"},
	}, {
		name:    "a membership changes: the summary entry follows, the copy stays",
		state:   func(st projectionState) { st.summaries[10] = summaryOf(1) },
		changes: []change{changedMembership(ur(1), domain.User{})},
		want:    []string{"put? USER#10 UR#1", "summary 10 set [1] remove [] count +0"},
	}, {
		name:    "a membership without a summary entry moves only the summary's version",
		state:   func(st projectionState) { st.summaries[10] = userRolesState{} },
		changes: []change{changedMembership(ur(1), domain.User{})},
		want:    []string{"put? USER#10 UR#1", "summary 10 set [] remove [] count +0"},
	}, {
		name:    "the last role of an organization is removed, the user stays",
		state:   func(st projectionState) { st.orgs[10] = storedOrgs(1) },
		changes: []change{removedMembership(ur(1))},
		want: []string{"del? USER#10 UR#1", "del? USER#10 ORG#org-1", "count COUNT#members#1#2 -1", "count COUNT#guests#1#2 -1",
			"count COUNT#orgusers#org-1#10 -1", "summary 10 set [] remove [1] count -1"},
	}, {
		name:    "the last membership ends and the user goes",
		state:   func(st projectionState) { st.orgs[10] = storedOrgs(1) },
		changes: []change{removedMembership(ur(1)), deletedUser(marie)},
		want: []string{"del? USER#10 UR#1", "del? USER#10 ORG#org-1", "words put 0 del 10",
			"count COUNT#members#1#2 -1", "count COUNT#guests#1#2 -1", "count COUNT#users#10 -1", "count COUNT#orgusers#org-1#10 -1"},
	}, {
		name: "a rename moves the words, the organization listing and the copies not written anyway",
		state: func(st projectionState) {
			st.orgs[10] = storedOrgs(1)
			st.memberships[10] = []domain.UserRole{ur(1), ur(2)}
			st.summaries[10] = summaryOf(1, 2)
		},
		changes: []change{changedUser(marie, renamed), changedMembership(ur(2), renamed)},
		want: []string{"put? USER#10 UR#2", "put? USER#10 ORG#org-1", "words put 10 del 2",
			"summary 10 set [2] remove [] count +0", `relist 10/1 as "Marie Sklodowska"`},
	}, {
		name:    "a sign-in that changes nothing shown writes no copy",
		changes: []change{changedUser(marie, active)},
		want:    nil,
	}, {
		name:    "an invitation withdrawn takes its links, once per role",
		changes: []change{deletedInvitation(inv)},
		want:    []string{"del INV#5 ROLE#1", "del INV#5 ROLE#2"},
	}, {
		name:    "a new role of an organization has its counter, exact at zero, and is listed in all and in its organization",
		changes: []change{createdRole(physics)},
		want: []string{"put COUNT#members#7#0 COUNT", "put COUNT#members#7#1 COUNT", "put COUNT#members#7#2 COUNT", "put COUNT#members#7#3 COUNT",
			"put COUNT#guests#7#0 COUNT", "put COUNT#guests#7#1 COUNT", "put COUNT#guests#7#2 COUNT", "put COUNT#guests#7#3 COUNT",
			"put COUNT#others#7#0 COUNT", "put COUNT#others#7#1 COUNT", "put COUNT#others#7#2 COUNT", "put COUNT#others#7#3 COUNT",
			"put ROLE#7 LIST#ALL", "put ROLE#7 LIST#ORG#org-1",
			"put " + wordKey("org-1", "lab", 7), "put " + wordKey("org-1", "physics", 7), "put " + wordKey("org-1", "quantum", 7),
			"count COUNT#roles#ALL +1", "count COUNT#roles#ORG#org-1 +1"},
	}, {
		name:    "the first role of a table, of no organization: listed in all, and the listings are ready",
		changes: []change{createdRole(first)},
		want: []string{"put COUNT#members#1#0 COUNT", "put COUNT#members#1#1 COUNT", "put COUNT#members#1#2 COUNT", "put COUNT#members#1#3 COUNT",
			"put COUNT#guests#1#0 COUNT", "put COUNT#guests#1#1 COUNT", "put COUNT#guests#1#2 COUNT", "put COUNT#guests#1#3 COUNT",
			"put COUNT#others#1#0 COUNT", "put COUNT#others#1#1 COUNT", "put COUNT#others#1#2 COUNT", "put COUNT#others#1#3 COUNT",
			"put ROLE#1 LIST#ALL",
			"put " + wordKey("", "lab", 1), "put " + wordKey("", "physics", 1), "put " + wordKey("", "quantum", 1),
			"put ROLELISTING READY", "count COUNT#roles#ALL +1"},
	}, {
		name:    "a renamed role: its listing and word items again (they carry the words), one more word, no count",
		changes: []change{changedRole(physics, renamedRole)},
		want: []string{"put ROLE#7 LIST#ALL", "put ROLE#7 LIST#ORG#org-1",
			"put " + wordKey("org-1", "applied", 7), "put " + wordKey("org-1", "lab", 7), "put " + wordKey("org-1", "physics", 7), "put " + wordKey("org-1", "quantum", 7)},
	}, {
		name:    "a role moved to another organization leaves one scope for another; its listing in all stays",
		changes: []change{changedRole(physics, moved)},
		want: []string{"del ROLE#7 LIST#ORG#org-1",
			"del " + wordKey("org-1", "lab", 7), "del " + wordKey("org-1", "physics", 7), "del " + wordKey("org-1", "quantum", 7),
			"put ROLE#7 LIST#ORG#org-2",
			"put " + wordKey("org-2", "lab", 7), "put " + wordKey("org-2", "physics", 7), "put " + wordKey("org-2", "quantum", 7),
			"count COUNT#roles#ORG#org-1 -1", "count COUNT#roles#ORG#org-2 +1"},
	}, {
		name:    "a role change nothing listed shows (its applications) writes no listing item",
		changes: []change{changedRole(physics, otherApps)},
		want:    nil,
	}, {
		name:    "a deleted role takes its listing items and leaves its scopes; its member counter stays",
		changes: []change{deletedRole(physics)},
		want: []string{"del ROLE#7 LIST#ALL", "del ROLE#7 LIST#ORG#org-1",
			"del " + wordKey("org-1", "lab", 7), "del " + wordKey("org-1", "physics", 7), "del " + wordKey("org-1", "quantum", 7),
			"count COUNT#roles#ALL -1", "count COUNT#roles#ORG#org-1 -1"},
	}, {
		name: "a guest made a manager with the guest role: on both sides now",
		state: func(st projectionState) {
			st.summaries[10] = summaryOf(1)
			st.stored[userRoleKey(10, 1)] = ur(1)
		},
		changes: []change{changedMembership(func() domain.UserRole {
			m := ur(1)
			m.Authority, m.GuestRoleIncluded = domain.Manager, true
			return m
		}(), domain.User{})},
		want: []string{"put? USER#10 UR#1", "count COUNT#others#1#2 +1", "summary 10 set [1] remove [] count +0"},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			st := newProjectionState()
			if tc.state != nil {
				tc.state(st)
			}
			got := describe(projectChanges(st, tc.changes...))
			if !slices.Equal(got, tc.want) {
				t.Errorf("projection:\n got %q\nwant %q", got, tc.want)
			}
			// needsOf asks for what the projection used.
			n := needsOf(tc.changes)
			for _, uid := range n.orgs {
				if st.orgs[uid] == nil {
					t.Errorf("the changes need the organization items of user %d, the case gives none", uid)
				}
			}
		})
	}
}
