package dynamo_test

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/edu-invite/invite/shared/domain"
	"github.com/edu-invite/invite/shared/dynamo"
	"github.com/edu-invite/invite/shared/dynamo/dynamotest"
)

// writtenThroughTheStore fills a table only through the store's writes,
// each of which derives its copies in the projection step: roles created,
// renamed, moved and deleted; invitations sent, resent, accepted and
// withdrawn; new and known users accepting; roles granted without an
// invitation; a rename and an adminship on sign-in; end dates and
// authorities changed; reminders; removals that keep and that delete the
// user; a CRM invitation; seeded users. It returns the ids of the roles
// and users it wrote.
func writtenThroughTheStore(t *testing.T, s *dynamo.Store) (roleIDs, userIDs []int64) {
	t.Helper()
	newRole := func(id int64, name, org string, apps ...string) {
		r := role(id, name, apps...)
		r.OrganizationGUID = org
		must(t, s.CreateRole(ctx(t), r, nil))
		roleIDs = append(roleIDs, id)
	}
	newRole(1, "Physics", "org-1", "app-1")
	newRole(2, "Chemistry", "org-1")
	newRole(3, "Biology", "org-2", "app-2")
	newRole(4, "Closing", "org-2")

	// Invitations: two accepted by new users, one resent, one withdrawn.
	accept := func(inv domain.Invitation, u domain.User, isNew bool, urs ...domain.UserRole) {
		inv.Version, inv.Status = inv.Version+1, domain.InvitationAccepted
		at := testNow
		inv.AcceptedAt = &at
		must(t, s.SaveAcceptance(ctx(t), domain.Acceptance{Invitation: inv, User: u, NewUser: isNew, NewUserRoles: urs}))
	}
	invs := []domain.Invitation{invitation(1, "digest-1", 1, 2), invitation(2, "digest-2", 3, 4),
		invitation(3, "digest-3", 1), invitation(4, "digest-4", 2, 3)}
	must(t, s.CreateInvitations(ctx(t), invs))
	marie := domain.User{ID: 10, Sub: "sub-10", GivenName: "Marie", FamilyName: "Curie", Name: "Marie Curie",
		Email: "marie@lab.example.org", SchacHomeOrganization: "lab.example.org", CreatedAt: testNow}
	accept(invs[0], marie, true, membership(100, 10, 1), membership(101, 10, 2))
	alan := domain.User{ID: 11, Sub: "sub-11", GivenName: "Alan", FamilyName: "Turing", Name: "Alan Turing",
		Email: "alan@cs.example.org", CreatedAt: testNow}
	accept(invs[1], alan, true, membership(110, 11, 3), membership(111, 11, 4))
	ada := domain.User{ID: 12, Sub: "sub-12", GivenName: "Ada", FamilyName: "Lovelace", Name: "Ada Lovelace",
		Email: "ada@engines.example.org", CreatedAt: testNow}
	accept(invitation(0, "", 0), ada, true, membership(120, 12, 3)) // provisioned without an invitation
	userIDs = []int64{10, 11, 12}

	stored, err := s.GetInvitation(ctx(t), 3)
	must(t, err)
	stored.HashDigest = "digest-3b"
	stored.ExpiryDate = testNow.Add(30 * 24 * time.Hour)
	must(t, s.ReissueInvitation(ctx(t), stored))
	withdrawn, err := s.GetInvitation(ctx(t), 4)
	must(t, err)
	must(t, s.DeleteInvitations(ctx(t), []domain.Invitation{withdrawn}))

	// A known user accepts another invitation and is granted a role.
	must(t, s.CreateInvitations(ctx(t), []domain.Invitation{invitation(5, "digest-5", 1)}))
	alanNow, err := s.GetUser(ctx(t), 11)
	must(t, err)
	alanNow.Name, alanNow.MiddleName, alanNow.Email = "Alan M. Turing", "Mathison", "turing@cs.example.org" // renamed on accepting
	accept(invitation(5, "digest-5", 1), alanNow, false, membership(112, 11, 1))
	grant(t, s, 12, 1, 121)

	// Sign-in with new attributes: a rename, and an institution admin.
	u, err := s.GetUser(ctx(t), 10)
	must(t, err)
	u.GivenName, u.Name, u.Email = "Maria", "Maria Skłodowska-Curie", "maria@lab.example.org"
	u.InstitutionAdmin, u.OrganizationGUID = true, "org-1"
	must(t, s.UpdateUser(ctx(t), u, nil))

	// An end date and an authority change, and a reminder.
	ur, err := s.GetUserRole(ctx(t), 11, 3)
	must(t, err)
	later := testNow.AddDate(1, 0, 0)
	ur.EndDate, ur.Authority = &later, domain.Manager
	must(t, s.UpdateUserRole(ctx(t), ur, nil, nil))
	ur, err = s.GetUserRole(ctx(t), 10, 1)
	must(t, err)
	previous := ur.ExpiryNotifications
	ur.ExpiryNotifications++
	must(t, s.RecordReminder(ctx(t), ur, previous, domain.MailDelivery{ID: "mail-1", Email: domain.Email{To: "maria@lab.example.org", Subject: "expiry"}, CreatedAt: testNow}))

	// Roles renamed and moved to another organization.
	r, err := s.GetRole(ctx(t), 2)
	must(t, err)
	r.Name, r.ShortName = "Organic chemistry", domain.ShortNameOf("Organic chemistry")
	must(t, s.UpdateRole(ctx(t), r, nil))
	r, err = s.GetRole(ctx(t), 3)
	must(t, err)
	r.OrganizationGUID = "org-1"
	must(t, s.UpdateRole(ctx(t), r, nil))
	carryMembers(t, s, 3)

	// Removals: one keeping its user, a role deletion, a user's last membership.
	keep, err := s.GetUser(ctx(t), 10)
	must(t, err)
	ur, err = s.GetUserRole(ctx(t), 10, 2)
	must(t, err)
	must(t, s.ApplyRemoval(ctx(t), domain.Removal{UserRoles: []domain.UserRole{ur}, KeepUser: &keep}))
	r, err = s.GetRole(ctx(t), 4)
	must(t, err)
	must(t, s.DeleteRole(ctx(t), r, nil))
	ur, err = s.GetUserRole(ctx(t), 11, 4)
	must(t, err)
	must(t, s.DeleteUserRoles(ctx(t), []domain.UserRole{ur}, nil, nil))
	must(t, s.FinishRoleDeletion(ctx(t), 4))
	roleIDs = slices.DeleteFunc(roleIDs, func(id int64) bool { return id == 4 })
	must(t, s.CreateInvitations(ctx(t), []domain.Invitation{invitation(6, "digest-6", 2)}))
	leaving := domain.User{ID: 13, Sub: "sub-13", GivenName: "Leo", Name: "Leo Left", Email: "leo@example.org", CreatedAt: testNow}
	accept(invitation(6, "digest-6", 2), leaving, true, membership(130, 13, 2))
	gone, err := s.GetUser(ctx(t), 13)
	must(t, err)
	ur, err = s.GetUserRole(ctx(t), 13, 2)
	must(t, err)
	must(t, s.ApplyRemoval(ctx(t), domain.Removal{UserRoles: []domain.UserRole{ur}, DeleteUser: &gone}))

	// A CRM invitation, open.
	must(t, s.CreateCRMInvitation(ctx(t), crmInvitation(7, "crm-org", "contact-1", 1)))

	// Seeded users in a seeded role and in a role created before.
	seed := domain.Seed{Roles: []domain.Role{role(20, "Seeded")}}
	for i := range int64(3) {
		uid := 20 + i
		seed.Users = append(seed.Users, domain.User{ID: uid, Sub: fmt.Sprint("sub-", uid), GivenName: "Seed",
			FamilyName: fmt.Sprint("Person", uid), Name: fmt.Sprint("Seed Person", uid), Email: fmt.Sprint("s", uid, "@example.org")})
		seed.UserRoles = append(seed.UserRoles, domain.UserRole{ID: 200 + i, UserID: uid, RoleID: 20, Authority: domain.Guest, CreatedAt: testNow})
		userIDs = append(userIDs, uid)
	}
	seed.UserRoles = append(seed.UserRoles, domain.UserRole{ID: 210, UserID: 20, RoleID: 1, Authority: domain.Inviter, CreatedAt: testNow})
	must(t, s.Seed(ctx(t), seed))
	roleIDs = append(roleIDs, 20)
	return roleIDs, userIDs
}

// TestRepairsChangeNothingWrittenByTheProjection: every derived copy the
// writes keep is what the repairs would make of it, so on a table written
// only through the store (the projection step) the date repair, the index
// repair (with the role listings' items, role counts and ready item), the
// members index rebuild, the member recount and the organization rebuild
// write nothing: every item is the same afterwards. No role listing item is
// left over from a rename, move or deletion.
func TestRepairsChangeNothingWrittenByTheProjection(t *testing.T) {
	client, table := dynamotest.NewClient(t)
	raw := rawTable{Client: client, table: table}
	s := dynamo.New(client, table, func() time.Time { return testNow })
	roleIDs, userIDs := writtenThroughTheStore(t, s)
	before := tableItems(t, raw)
	checkRoleListingsFollowRoles(t, s, before)

	repairs, err := s.RepairDates(ctx(t), true)
	must(t, err)
	if len(repairs) != 0 {
		t.Errorf("the date repair found %d dates to repair: %+v", len(repairs), repairs)
	}
	res := repairAll(t, s, 3)
	if res.RoleCountsRepaired != 0 || res.MembersIndexesBuilt != 0 || res.SummariesWritten != 0 || res.WordItemsWritten != 0 {
		t.Errorf("the index repair repaired something: %+v", res)
	}
	if res.Roles != len(roleIDs) || res.Users != len(userIDs) {
		t.Errorf("the index repair saw %d roles and %d users, want %d and %d", res.Roles, res.Users, len(roleIDs), len(userIDs))
	}
	for _, roleID := range roleIDs {
		must(t, s.RebuildMembersIndexOfRole(ctx(t), roleID))
		must(t, s.RecountMembersOfRole(ctx(t), roleID))
	}
	for _, userID := range append(userIDs, 13) { // 13 was deleted: nothing to rebuild
		must(t, s.RebuildUserOrganizations(ctx(t), userID))
	}

	after := tableItems(t, raw)
	if slices.Equal(before, after) {
		return
	}
	for _, it := range before {
		if !slices.Contains(after, it) {
			t.Errorf("changed or removed by a repair: %s", it)
		}
	}
	for _, it := range after {
		if !slices.Contains(before, it) {
			t.Errorf("written by a repair: %s", it)
		}
	}
}

// TestRepairsChangeNothingAfterRandomWrites: as above, after a seeded
// random mix of the store's writes (acceptances by new and known users,
// grants, renames and adminships, membership changes, removals keeping or
// deleting the user, role renames, moves, creations and deletions with
// their memberships, at least one). The seed is in
// the failure message; PROJECTION_SEED=<seed> runs that mix again.
func TestRepairsChangeNothingAfterRandomWrites(t *testing.T) {
	seed := time.Now().UnixNano()
	if v := os.Getenv("PROJECTION_SEED"); v != "" {
		var err error
		seed, err = strconv.ParseInt(v, 10, 64)
		must(t, err)
	}
	t.Logf("seed %d", seed)
	rnd := rand.New(rand.NewPCG(uint64(seed), 0))
	client, table := dynamotest.NewClient(t)
	raw := rawTable{Client: client, table: table}
	s := dynamo.New(client, table, func() time.Time { return testNow })
	orgs := []string{"org-1", "org-2", ""}
	roleIDs := []int64{}
	nextRole, nextUser, nextID := int64(1), int64(100), int64(1000)
	newRole := func() {
		r := role(nextRole, fmt.Sprint("Role ", nextRole))
		r.OrganizationGUID = orgs[rnd.IntN(len(orgs))]
		must(t, s.CreateRole(ctx(t), r, nil))
		roleIDs = append(roleIDs, nextRole)
		nextRole++
	}
	for range 3 {
		newRole()
	}
	var userIDs []int64
	given := []string{"Ada", "Alan", "Grace", "Marie", "Émile", "Zoë"}
	family := []string{"Lovelace", "Turing", "Hopper", "Curie", "de Vries", "O'Neil"}
	person := func(uid int64) domain.User {
		g, f := given[rnd.IntN(len(given))], family[rnd.IntN(len(family))]
		return domain.User{ID: uid, Sub: fmt.Sprint("sub-", uid), GivenName: g, FamilyName: f, Name: g + " " + f,
			Email: fmt.Sprintf("%s.%d@%s.example.org", strings.ToLower(g), uid, orgs[rnd.IntN(2)]), CreatedAt: testNow}
	}
	pickRoles := func() []int64 {
		var out []int64
		for _, r := range roleIDs {
			if rnd.IntN(3) == 0 {
				out = append(out, r)
			}
		}
		if len(out) == 0 {
			out = append(out, roleIDs[rnd.IntN(len(roleIDs))])
		}
		return out
	}
	grantTo := func(u domain.User, roles []int64, isNew bool) {
		held, err := s.ListUserRolesOfUser(ctx(t), u.ID)
		if !isNew {
			must(t, err)
		}
		var urs []domain.UserRole
		for _, r := range roles {
			if slices.ContainsFunc(held, func(ur domain.UserRole) bool { return ur.RoleID == r }) {
				continue
			}
			nextID++
			ur := membership(nextID, u.ID, r)
			ur.Authority = []domain.Authority{domain.Guest, domain.Inviter, domain.Manager}[rnd.IntN(3)]
			ur.GuestRoleIncluded = rnd.IntN(2) == 0
			urs = append(urs, ur)
		}
		if len(urs) == 0 {
			return
		}
		acc := domain.Acceptance{User: u, NewUser: isNew, NewUserRoles: urs}
		if rnd.IntN(2) == 0 { // through an invitation
			nextID++
			inv := invitation(nextID, fmt.Sprint("digest-", nextID), roles...)
			must(t, s.CreateInvitations(ctx(t), []domain.Invitation{inv}))
			inv.Version, inv.Status = 1, domain.InvitationAccepted
			at := testNow
			inv.AcceptedAt = &at
			acc.Invitation = inv
		}
		must(t, s.SaveAcceptance(ctx(t), acc))
	}
	someUser := func() (domain.User, bool) {
		if len(userIDs) == 0 {
			return domain.User{}, false
		}
		u, err := s.GetUser(ctx(t), userIDs[rnd.IntN(len(userIDs))])
		must(t, err)
		return u, true
	}
	// deleteRole deletes a role, then each of its memberships in a removal
	// of its own, the user with it when no role of another membership is
	// left, and finishes the deletion.
	var deleted []int64
	deleteRole := func(roleID int64) {
		r, err := s.GetRole(ctx(t), roleID)
		must(t, err)
		must(t, s.DeleteRole(ctx(t), r, nil))
		roleIDs = slices.DeleteFunc(roleIDs, func(id int64) bool { return id == roleID })
		for _, uid := range slices.Clone(userIDs) {
			u, err := s.GetUser(ctx(t), uid)
			must(t, err)
			urs, err := s.ListUserRolesOfUser(ctx(t), uid)
			must(t, err)
			i := slices.IndexFunc(urs, func(ur domain.UserRole) bool { return ur.RoleID == roleID })
			if i < 0 {
				continue
			}
			r := domain.Removal{UserRoles: urs[i : i+1]}
			if len(urs) == 1 {
				r.DeleteUser = &u
				userIDs = slices.DeleteFunc(userIDs, func(id int64) bool { return id == uid })
			} else {
				r.KeepUser = &u
			}
			must(t, s.ApplyRemoval(ctx(t), r))
		}
		must(t, s.FinishRoleDeletion(ctx(t), roleID))
		deleted = append(deleted, roleID)
	}
	acceptNewUser := func() {
		u := person(nextUser)
		nextUser++
		grantTo(u, pickRoles(), true)
		userIDs = append(userIDs, u.ID)
	}
	for op := range 80 {
		switch k := rnd.IntN(11); {
		case k < 3 || len(userIDs) == 0: // a new user accepts
			acceptNewUser()
		case k == 3: // a known user gets more roles, maybe renamed on the way
			u, _ := someUser()
			if rnd.IntN(2) == 0 {
				renamed := person(u.ID)
				u.GivenName, u.FamilyName, u.Name, u.Email = renamed.GivenName, renamed.FamilyName, renamed.Name, renamed.Email
			}
			grantTo(u, pickRoles(), false)
		case k == 4: // sign-in with new attributes, adminship
			u, _ := someUser()
			renamed := person(u.ID)
			u.GivenName, u.Name, u.SchacHomeOrganization = renamed.GivenName, renamed.Name, "home.example.org"
			u.InstitutionAdmin = rnd.IntN(3) == 0
			u.OrganizationGUID = orgs[rnd.IntN(2)]
			must(t, s.UpdateUser(ctx(t), u, nil))
		case k == 5: // a membership changes
			u, _ := someUser()
			urs, err := s.ListUserRolesOfUser(ctx(t), u.ID)
			must(t, err)
			if len(urs) == 0 {
				continue
			}
			ur := urs[rnd.IntN(len(urs))]
			end := testNow.AddDate(0, rnd.IntN(24)+1, 0)
			ur.EndDate, ur.GuestRoleIncluded = &end, !ur.GuestRoleIncluded
			must(t, s.UpdateUserRole(ctx(t), ur, nil, nil))
		case k == 6: // a removal, of the user too when it was the last
			u, _ := someUser()
			urs, err := s.ListUserRolesOfUser(ctx(t), u.ID)
			must(t, err)
			if len(urs) == 0 {
				continue
			}
			ur := urs[rnd.IntN(len(urs))]
			r := domain.Removal{UserRoles: []domain.UserRole{ur}}
			if len(urs) == 1 {
				r.DeleteUser = &u
				userIDs = slices.DeleteFunc(userIDs, func(id int64) bool { return id == u.ID })
			} else {
				r.KeepUser = &u
			}
			must(t, s.ApplyRemoval(ctx(t), r))
		case k == 7: // a role renamed or moved
			r, err := s.GetRole(ctx(t), roleIDs[rnd.IntN(len(roleIDs))])
			must(t, err)
			if rnd.IntN(2) == 0 {
				r.Name = fmt.Sprint("Role ", r.ID, " renamed ", op)
			} else {
				r.OrganizationGUID = orgs[rnd.IntN(len(orgs))]
			}
			must(t, s.UpdateRole(ctx(t), r, nil))
			carryMembers(t, s, r.ID)
		case k == 8 || len(roleIDs) < 2:
			newRole()
		case k == 10: // a role deleted, its memberships after it (as the service does)
			deleteRole(roleIDs[rnd.IntN(len(roleIDs))])
		default: // memberships of one role removed (DELETE /user_roles)
			u, _ := someUser()
			urs, err := s.ListUserRolesOfUser(ctx(t), u.ID)
			must(t, err)
			if len(urs) < 2 {
				continue
			}
			must(t, s.DeleteUserRoles(ctx(t), urs[:1], nil, nil))
		}
	}
	if len(deleted) == 0 { // at least one deletion, whatever the seed drew
		deleteRole(roleIDs[0])
	}
	if len(userIDs) == 0 { // the deletions took every user: one to check the search items of
		acceptNewUser()
	}
	t.Logf("roles deleted: %v", deleted)
	checkRepairsChangeNothing(t, s, raw, seed, roleIDs, 100, nextUser, nil)
}

// checkRepairsChangeNothing checks the listings and search items against
// the table, then runs every repair (the index repair, each role's members
// index and counters, each user's organization items from firstUser to
// before nextUser) and fails on any item one of them changed, removed or
// wrote, except those writtenAnyway says a repair writes of its own.
func checkRepairsChangeNothing(t *testing.T, s *dynamo.Store, raw rawTable, seed int64, roleIDs []int64, firstUser, nextUser int64, writtenAnyway func(item string) bool) {
	t.Helper()
	before := tableItems(t, raw)
	checkRoleListingsFollowRoles(t, s, before)
	checkUserSearchItemsFollowUsers(t, s, before)
	res := repairAll(t, s, 7)
	if res.RoleCountsRepaired != 0 || res.MembersIndexesBuilt != 0 || res.SummariesWritten != 0 || res.WordItemsWritten != 0 {
		t.Errorf("seed %d: the index repair repaired something: %+v", seed, res)
	}
	for _, roleID := range roleIDs {
		must(t, s.RebuildMembersIndexOfRole(ctx(t), roleID))
		must(t, s.RecountMembersOfRole(ctx(t), roleID))
	}
	for uid := firstUser; uid < nextUser; uid++ {
		must(t, s.RebuildUserOrganizations(ctx(t), uid))
	}
	after := tableItems(t, raw)
	for _, it := range before {
		if !slices.Contains(after, it) {
			t.Errorf("seed %d: changed or removed by a repair: %s", seed, it)
		}
	}
	for _, it := range after {
		if !slices.Contains(before, it) && (writtenAnyway == nil || !writtenAnyway(it)) {
			t.Errorf("seed %d: written by a repair: %s", seed, it)
		}
	}
}

// checkRoleListingsFollowRoles fails for a role listing or word item the
// projection left behind: of a role that is gone, in a scope or word
// partition of an organization the role left, or carrying words other than
// those of its role's listing in all (a word no longer the role's). The
// index repair only puts a role's current items, so the comparisons above
// cannot see such leftovers.
func checkRoleListingsFollowRoles(t *testing.T, s *dynamo.Store, items []string) {
	t.Helper()
	type listed struct {
		PK, SK, Entity string
		RoleID         int64
		Words          []string
	}
	var all []listed
	wordsInAll := map[int64]string{}
	for _, it := range items {
		var m map[string]any
		must(t, json.Unmarshal([]byte(it), &m))
		entity, _ := m["entity"].(string)
		if entity != "RoleListing" && entity != "RoleWord" {
			continue
		}
		l := listed{PK: fmt.Sprint(m["pk"]), SK: fmt.Sprint(m["sk"]), Entity: entity, RoleID: int64(m["roleId"].(float64))}
		if ws, ok := m["words"].([]any); ok {
			for _, w := range ws {
				l.Words = append(l.Words, fmt.Sprint(w))
			}
		}
		all = append(all, l)
		if l.SK == "LIST#ALL" {
			wordsInAll[l.RoleID] = strings.Join(l.Words, " ")
		}
	}
	if len(all) == 0 {
		t.Fatal("no role listing items: the writes did not list their roles")
	}
	for _, l := range all {
		r, err := s.GetRole(ctx(t), l.RoleID)
		if err != nil {
			t.Errorf("%s %s %s is of role %d: %v", l.Entity, l.PK, l.SK, l.RoleID, err)
			continue
		}
		var inScope bool
		if l.Entity == "RoleListing" {
			inScope = l.SK == "LIST#ALL" || (r.OrganizationGUID != "" && l.SK == "LIST#ORG#"+r.OrganizationGUID)
		} else {
			word, _, _ := strings.Cut(l.SK, "#")
			inScope = strings.HasPrefix(l.PK, "RWORD#"+r.OrganizationGUID+"#") && slices.Contains(l.Words, word)
		}
		if !inScope {
			t.Errorf("%s %s %s is not where role %d (organization %q) is listed", l.Entity, l.PK, l.SK, r.ID, r.OrganizationGUID)
		}
		if got, want := strings.Join(l.Words, " "), wordsInAll[l.RoleID]; got != want {
			t.Errorf("%s %s %s carries the words %q, role %d's listing %q", l.Entity, l.PK, l.SK, got, r.ID, want)
		}
	}
}
