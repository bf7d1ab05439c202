package dynamo_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/edu-invite/invite/shared/domain"
	"github.com/edu-invite/invite/shared/dynamo"
)

// orgListing is the organization's listing by name (no query) with its
// total, which must equal the users listed.
func orgListing(t *testing.T, s *dynamo.Store, org string) []string {
	t.Helper()
	return search(t, s, org, "")
}

// grant gives an existing user a role without an invitation (as U8 does).
func grant(t *testing.T, s *dynamo.Store, userID, roleID, urID int64) {
	t.Helper()
	u, err := s.GetUser(ctx(t), userID)
	must(t, err)
	must(t, s.SaveAcceptance(ctx(t), domain.Acceptance{User: u, NewUserRoles: []domain.UserRole{membership(urID, userID, roleID)}}))
}

// revoke removes a membership (ApplyRemoval, the user staying).
func revoke(t *testing.T, s *dynamo.Store, userID, roleID int64) {
	t.Helper()
	ur, err := s.GetUserRole(ctx(t), userID, roleID)
	must(t, err)
	must(t, s.ApplyRemoval(ctx(t), domain.Removal{UserRoles: []domain.UserRole{ur}}))
}

func createRole(t *testing.T, s *dynamo.Store, roleID int64, org string) {
	t.Helper()
	r := role(roleID, fmt.Sprint("Role ", roleID))
	r.OrganizationGUID = org
	must(t, s.CreateRole(ctx(t), r, nil))
}

// orgItems counts the organization items in a user's partition.
func orgItems(t *testing.T, client rawTable, userID int64) int {
	t.Helper()
	return countRawItems(t, client, fmt.Sprint("USER#", userID), "ORG#")
}

func TestOrganizationIndexFollowsMemberships(t *testing.T) {
	s, client := searchStore(t) // org-1: Marie Curie, Pierre Curie, Ada Lovelace; org-2: Marie Turing (user 4)
	createRole(t, s, 3, "org-1")
	org1 := []string{"Ada Lovelace", "Marie Curie", "Pierre Curie"}
	if got := orgListing(t, s, "org-1"); !slices.Equal(got, org1) {
		t.Fatalf("org-1 at start: %q", got)
	}

	// Acceptance into a role of org-1: listed there, still in org-2.
	grant(t, s, 4, 1, 41)
	withTuring := []string{"Ada Lovelace", "Marie Curie", "Marie Turing", "Pierre Curie"}
	if got := orgListing(t, s, "org-1"); !slices.Equal(got, withTuring) {
		t.Errorf("after acceptance into role 1: %q", got)
	}
	if got := search(t, s, "org-1", "turi"); !slices.Equal(got, []string{"Marie Turing"}) {
		t.Errorf("word search after acceptance: %q", got)
	}
	// A second role of org-1, then the first one removed: still listed, once.
	grant(t, s, 4, 3, 43)
	revoke(t, s, 4, 1)
	if got := orgListing(t, s, "org-1"); !slices.Equal(got, withTuring) {
		t.Errorf("after removing one of two roles: %q", got)
	}
	// The last role of org-1 removed: no longer listed, nor found by a word.
	revoke(t, s, 4, 3)
	if got := orgListing(t, s, "org-1"); !slices.Equal(got, org1) {
		t.Errorf("after removing the last role: %q", got)
	}
	if got := search(t, s, "org-1", "turing"); len(got) != 0 {
		t.Errorf("turing still found in org-1: %q", got)
	}
	if got := orgListing(t, s, "org-2"); !slices.Equal(got, []string{"Marie Turing"}) {
		t.Errorf("org-2 after the org-1 changes: %q", got)
	}
	if n := orgItems(t, client, 4); n != 1 {
		t.Errorf("user 4 has %d organization items, want 1 (org-2)", n)
	}

	// Role deletion: the role goes first, its memberships after it.
	createRole(t, s, 5, "org-3")
	grant(t, s, 1, 5, 51)
	grant(t, s, 2, 5, 52)
	if got := orgListing(t, s, "org-3"); !slices.Equal(got, []string{"Marie Curie", "Pierre Curie"}) {
		t.Errorf("org-3 before its role's deletion: %q", got)
	}
	r5, err := s.GetRole(ctx(t), 5)
	must(t, err)
	must(t, s.DeleteRole(ctx(t), r5, nil))
	members, _, err := s.ListUserRolesOfRole(ctx(t), 5, "", 25)
	must(t, err)
	must(t, s.DeleteUserRoles(ctx(t), members, nil, nil))
	if got := orgListing(t, s, "org-3"); len(got) != 0 {
		t.Errorf("org-3 after its role's deletion: %q", got)
	}
	if got := orgListing(t, s, "org-1"); !slices.Equal(got, org1) {
		t.Errorf("org-1 after the org-3 role's deletion: %q", got)
	}

	// Rename: listed and found under the new name only.
	u2, err := s.GetUser(ctx(t), 2)
	must(t, err)
	u2.FamilyName, u2.Name = "Joliot", "Pierre Joliot"
	must(t, s.UpdateUser(ctx(t), u2, nil))
	if got := orgListing(t, s, "org-1"); !slices.Equal(got, []string{"Ada Lovelace", "Marie Curie", "Pierre Joliot"}) {
		t.Errorf("org-1 after a rename: %q", got)
	}
	if got := search(t, s, "org-1", "joli"); !slices.Equal(got, []string{"Pierre Joliot"}) {
		t.Errorf("new name in org-1: %q", got)
	}
	if got := search(t, s, "org-1", "p"); !slices.Equal(got, []string{"Pierre Joliot"}) {
		t.Errorf("one letter in org-1: %q", got)
	}
	if got := search(t, s, "org-1", "curie"); !slices.Equal(got, []string{"Marie Curie"}) {
		t.Errorf("old name in org-1: %q", got)
	}

	// User deletion: gone from the listing with every organization item.
	ur3, err := s.GetUserRole(ctx(t), 3, 1)
	must(t, err)
	u3, err := s.GetUser(ctx(t), 3)
	must(t, err)
	must(t, s.ApplyRemoval(ctx(t), domain.Removal{UserRoles: []domain.UserRole{ur3}, DeleteUser: &u3}))
	if got := orgListing(t, s, "org-1"); !slices.Equal(got, []string{"Marie Curie", "Pierre Joliot"}) {
		t.Errorf("org-1 after deleting Ada: %q", got)
	}
	if n := orgItems(t, client, 3); n != 0 {
		t.Errorf("deleted user has %d organization items", n)
	}
}

func TestOrganizationIndexListsInstitutionAdmins(t *testing.T) {
	s, client := searchStore(t)
	// Ada (user 3, a member of org-1) becomes the admin of org-2, where she has no role.
	u, err := s.GetUser(ctx(t), 3)
	must(t, err)
	u.InstitutionAdmin, u.OrganizationGUID = true, "org-2"
	must(t, s.UpdateUser(ctx(t), u, nil))
	u.Version++
	if got := orgListing(t, s, "org-2"); !slices.Equal(got, []string{"Ada Lovelace", "Marie Turing"}) {
		t.Errorf("org-2 with its admin: %q", got)
	}
	// Her only org-1 role ends: she stays listed in org-2 only.
	revoke(t, s, 3, 1)
	if got := orgListing(t, s, "org-1"); !slices.Equal(got, []string{"Marie Curie", "Pierre Curie"}) {
		t.Errorf("org-1 after Ada's last role: %q", got)
	}
	if got := search(t, s, "org-2", "lovel"); !slices.Equal(got, []string{"Ada Lovelace"}) {
		t.Errorf("admin by word in org-2: %q", got)
	}
	// No longer admin: gone from org-2, no item left.
	u, err = s.GetUser(ctx(t), 3)
	must(t, err)
	u.InstitutionAdmin = false
	must(t, s.UpdateUser(ctx(t), u, nil))
	if got := orgListing(t, s, "org-2"); !slices.Equal(got, []string{"Marie Turing"}) {
		t.Errorf("org-2 after the admin flag went: %q", got)
	}
	if n := orgItems(t, client, 3); n != 0 {
		t.Errorf("user without roles or adminship has %d organization items", n)
	}
}

func TestSeedListsUsersInTheirOrganization(t *testing.T) {
	s, _ := searchStore(t)
	r := role(100, "Seeded")
	r.OrganizationGUID = "org-seed"
	seed := domain.Seed{Roles: []domain.Role{r}}
	for i := range int64(30) {
		uid := 100 + i
		seed.Users = append(seed.Users, domain.User{ID: uid, Sub: fmt.Sprint("seed-", uid), GivenName: "Seedling",
			FamilyName: fmt.Sprintf("Number%02d", i), Name: fmt.Sprintf("Seedling Number%02d", i), Email: fmt.Sprint("seed", uid, "@seed.example.org")})
		seed.UserRoles = append(seed.UserRoles, domain.UserRole{ID: uid, UserID: uid, RoleID: 100, Authority: domain.Guest, CreatedAt: testNow})
	}
	must(t, s.Seed(ctx(t), seed))
	page, err := s.SearchUsers(ctx(t), domain.UserSearch{OrganizationGUID: "org-seed", Page: domain.PageRequest{Size: 10, Number: 2}})
	must(t, err)
	if page.Total != 30 || len(page.Items) != 10 || page.Items[0].Name != "Seedling Number20" {
		t.Errorf("third page of org-seed: total %d, %d items, first %+v", page.Total, len(page.Items), page.Items)
	}
	if got := orgListing(t, s, "org-1"); len(got) != 3 {
		t.Errorf("org-1 after seeding another organization: %q", got)
	}
}

func TestRebuildUserOrganizationsBackfills(t *testing.T) {
	s, client := searchStore(t)
	// Data written before the index: no organization items, no counts.
	for uid := int64(1); uid <= 4; uid++ {
		for _, org := range []string{"org-1", "org-2"} {
			deleteItem(t, client, fmt.Sprint("USER#", uid), "ORG#"+org)
		}
	}
	for shard := range 16 {
		deleteItem(t, client, fmt.Sprint("COUNT#orgusers#org-1#", shard), "COUNT")
	}
	if got := orgListing(t, s, "org-1"); len(got) != 0 {
		t.Fatalf("org-1 without its items: %q", got)
	}
	for uid := int64(1); uid <= 4; uid++ {
		must(t, s.RebuildUserOrganizations(ctx(t), uid))
	}
	if got := orgListing(t, s, "org-1"); !slices.Equal(got, []string{"Ada Lovelace", "Marie Curie", "Pierre Curie"}) {
		t.Errorf("org-1 rebuilt: %q", got)
	}
	// Rebuilding what is right changes nothing.
	must(t, s.RebuildUserOrganizations(ctx(t), 1))
	if got := orgListing(t, s, "org-1"); len(got) != 3 {
		t.Errorf("org-1 rebuilt twice: %q", got)
	}
	if n := orgItems(t, client, 1); n != 1 {
		t.Errorf("user 1 has %d organization items", n)
	}
}

func TestOrganizationIndexFollowsARoleMove(t *testing.T) {
	s, _ := searchStore(t)
	grant(t, s, 1, 2, 12) // Marie Curie holds role 2 (org-2) too
	r, err := s.GetRole(ctx(t), 1)
	must(t, err)
	r.OrganizationGUID = "org-9"
	must(t, s.UpdateRole(ctx(t), r, nil))
	carryMembers(t, s, 1)
	if got := orgListing(t, s, "org-1"); len(got) != 0 {
		t.Errorf("org-1 after its only role moved: %q", got)
	}
	if got := orgListing(t, s, "org-9"); !slices.Equal(got, []string{"Ada Lovelace", "Marie Curie", "Pierre Curie"}) {
		t.Errorf("org-9 after the role moved in: %q", got)
	}
	if got := orgListing(t, s, "org-2"); !slices.Equal(got, []string{"Marie Curie", "Marie Turing"}) {
		t.Errorf("org-2 (untouched): %q", got)
	}
}
