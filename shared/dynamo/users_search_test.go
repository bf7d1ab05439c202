package dynamo_test

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/edu-invite/invite/shared/domain"
	"github.com/edu-invite/invite/shared/dynamo"
	"github.com/edu-invite/invite/shared/dynamo/dynamotest"
)

// searchStore has role 1 (org-1) and role 2 (org-2) and people accepted
// into them; it returns the raw client too, to look at index items.
func searchStore(t *testing.T) (*dynamo.Store, rawTable) {
	t.Helper()
	client, table := dynamotest.NewClient(t)
	s := dynamo.New(client, table, func() time.Time { return testNow })
	must(t, s.CreateRole(ctx(t), role(1, "One"), nil))
	two := role(2, "Two")
	two.OrganizationGUID = "org-2"
	must(t, s.CreateRole(ctx(t), two, nil))
	for i, p := range []struct {
		given, family, email string
		role                 int64
	}{
		{"Marie", "Curie", "marie.curie@lab.example.org", 1},
		{"Pierre", "Curie", "pcurie@physics.example.org", 1},
		{"Ada", "Lovelace", "ada@engines.example.org", 1},
		{"Marie", "Turing", "mt@elsewhere.example.org", 2},
	} {
		n := int64(i + 1)
		inv := invitation(n, fmt.Sprint("digest-", n), p.role)
		must(t, s.CreateInvitations(ctx(t), []domain.Invitation{inv}))
		inv.Version, inv.Status = 1, domain.InvitationAccepted
		u := domain.User{ID: n, Sub: fmt.Sprint("sub-", n), GivenName: p.given, FamilyName: p.family,
			Name: p.given + " " + p.family, Email: p.email, CreatedAt: testNow}
		must(t, s.SaveAcceptance(ctx(t), domain.Acceptance{Invitation: inv, User: u, NewUser: true,
			NewUserRoles: []domain.UserRole{membership(n, n, p.role)}}))
	}
	return s, rawTable{Client: client, table: table}
}

func search(t *testing.T, s *dynamo.Store, org, query string) []string {
	t.Helper()
	page, err := s.SearchUsers(ctx(t), domain.UserSearch{OrganizationGUID: org, Page: domain.PageRequest{Query: query, Size: 100}})
	must(t, err)
	if int(page.Total) != len(page.Items) {
		t.Errorf("total %d for %d items", page.Total, len(page.Items))
	}
	var names []string
	for _, u := range page.Items {
		names = append(names, u.Name)
	}
	return names
}

func TestSearchUsersByWordPrefix(t *testing.T) {
	s, _ := searchStore(t)
	for _, tc := range []struct {
		name, org, query string
		want             []string
	}{
		{"given name prefix", "", "mar", []string{"Marie Curie", "Marie Turing"}},
		{"family name prefix", "", "curi", []string{"Marie Curie", "Pierre Curie"}},
		{"e-mail local part", "", "pcur", []string{"Pierre Curie"}},
		{"e-mail word", "", "engines", []string{"Ada Lovelace"}},
		{"case-insensitive", "", "LoVeL", []string{"Ada Lovelace"}},
		{"every word must match", "", "marie tur", []string{"Marie Turing"}},
		{"one letter: names starting with it", "", "a", []string{"Ada Lovelace"}},
		{"no match", "", "zzz", nil},
		{"organization scope", "org-1", "marie", []string{"Marie Curie"}},
		{"organization, no query", "org-1", "", []string{"Ada Lovelace", "Marie Curie", "Pierre Curie"}},
		{"other organization", "org-2", "", []string{"Marie Turing"}},
		{"all, no query", "", "", []string{"Ada Lovelace", "Marie Curie", "Marie Turing", "Pierre Curie"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := search(t, s, tc.org, tc.query); !slices.Equal(got, tc.want) {
				t.Errorf("search %q in %q = %q, want %q", tc.query, tc.org, got, tc.want)
			}
		})
	}
}

func TestSearchIndexFollowsUserWrites(t *testing.T) {
	s, client := searchStore(t)
	// An update replaces the words: the old family name is no longer found.
	u, err := s.GetUser(ctx(t), 1)
	must(t, err)
	u.FamilyName, u.Name, u.Email = "Sklodowska", "Marie Sklodowska", "marie@lab.example.org"
	must(t, s.UpdateUser(ctx(t), u, nil))
	u.Version++
	if got := search(t, s, "", "curie"); !slices.Equal(got, []string{"Pierre Curie"}) {
		t.Errorf("after rename, curie finds %q", got)
	}
	if got := search(t, s, "", "sklo"); !slices.Equal(got, []string{"Marie Sklodowska"}) {
		t.Errorf("after rename, sklo finds %q", got)
	}
	if n := wordItems(t, client, "UWORD#cu", "curie#1"); n != 0 {
		t.Errorf("%d stale word items of the old name", n)
	}
	// Becoming an institution admin lists the user under the organization.
	u.InstitutionAdmin, u.OrganizationGUID = true, "org-2"
	must(t, s.UpdateUser(ctx(t), u, nil))
	u.Version++
	admins, err := s.ListInstitutionAdmins(ctx(t), "org-2")
	must(t, err)
	if len(admins) != 1 || admins[0].ID != 1 {
		t.Errorf("admins of org-2 = %+v", admins)
	}
	if got := search(t, s, "org-2", "marie"); !slices.Equal(got, []string{"Marie Sklodowska", "Marie Turing"}) {
		t.Errorf("org-2 search for marie = %q (its admin and its member)", got)
	}
	// Deleting the user removes its words and uncounts it.
	ur, err := s.GetUserRole(ctx(t), 1, 1)
	must(t, err)
	must(t, s.ApplyRemoval(ctx(t), domain.Removal{UserRoles: []domain.UserRole{ur}, DeleteUser: &u}))
	if n := wordItems(t, client, "UWORD#ma", "marie#1"); n != 0 {
		t.Errorf("%d word items left of a deleted user", n)
	}
	page, err := s.SearchUsers(ctx(t), domain.UserSearch{Page: domain.PageRequest{Size: 10}})
	must(t, err)
	if page.Total != 3 || len(page.Items) != 3 {
		t.Errorf("after deletion: total %d, %d items", page.Total, len(page.Items))
	}
	if admins, _ := s.ListInstitutionAdmins(ctx(t), "org-2"); len(admins) != 0 {
		t.Errorf("deleted admin still listed: %+v", admins)
	}
}

func TestSearchAllUsersPagesByName(t *testing.T) {
	s, _ := searchStore(t)
	for _, tc := range []struct {
		page       domain.PageRequest
		want       []string
		wantTotal  int64
		queryLabel string
	}{
		{domain.PageRequest{Size: 3}, []string{"Ada Lovelace", "Marie Curie", "Marie Turing"}, 4, "listing page 0"},
		{domain.PageRequest{Size: 3, Number: 1}, []string{"Pierre Curie"}, 4, "listing page 1"},
		{domain.PageRequest{Size: 2, Descending: true}, []string{"Pierre Curie", "Marie Turing"}, 4, "listing descending"},
		{domain.PageRequest{Size: 3, Number: 2}, nil, 4, "listing beyond the end"},
		{domain.PageRequest{Size: 1, Number: 1, Query: "marie"}, []string{"Marie Turing"}, 2, "query page 1"},
		{domain.PageRequest{Size: 1, Query: "marie", Descending: true}, []string{"Marie Turing"}, 2, "query descending"},
	} {
		t.Run(tc.queryLabel, func(t *testing.T) {
			page, err := s.SearchUsers(ctx(t), domain.UserSearch{Page: tc.page})
			must(t, err)
			var got []string
			for _, u := range page.Items {
				got = append(got, u.Name)
			}
			if !slices.Equal(got, tc.want) || page.Total != tc.wantTotal {
				t.Errorf("got %q total %d, want %q total %d", got, page.Total, tc.want, tc.wantTotal)
			}
		})
	}
}

func TestSeedWritesSearchableUsers(t *testing.T) {
	s, _ := searchStore(t)
	r := role(100, "Seeded")
	end := testNow.AddDate(1, 0, 0)
	seed := domain.Seed{Roles: []domain.Role{r}}
	for i := int64(0); i < 30; i++ {
		uid := 100 + i
		seed.Users = append(seed.Users, domain.User{ID: uid, Sub: fmt.Sprint("seed-", uid), GivenName: "Seedling",
			FamilyName: fmt.Sprint("Number", i), Name: fmt.Sprint("Seedling Number", i), Email: fmt.Sprint("seed", uid, "@seed.example.org")})
		seed.UserRoles = append(seed.UserRoles, domain.UserRole{ID: uid, UserID: uid, RoleID: 100, Authority: domain.Guest, EndDate: &end, CreatedAt: testNow})
	}
	must(t, s.Seed(ctx(t), seed))
	if _, err := s.GetRole(ctx(t), 100); err != nil {
		t.Fatalf("seeded role: %v", err)
	}
	if u, err := s.GetUserBySub(ctx(t), "seed-129"); err != nil || u.ID != 129 {
		t.Fatalf("seeded user by sub: %+v %v", u, err)
	}
	if got := search(t, s, "", "seedl"); len(got) != 30 {
		t.Errorf("seedl finds %d users, want 30", len(got))
	}
	if got := search(t, s, "org-1", "seedl"); len(got) != 30 {
		t.Errorf("seedl in org-1 (the seeded role's) finds %d users, want 30", len(got))
	}
	page, err := s.SearchUsers(ctx(t), domain.UserSearch{Page: domain.PageRequest{Size: 5}})
	must(t, err)
	if page.Total != 34 {
		t.Errorf("total after seeding 30 to 4 users = %d", page.Total)
	}
}

// rawTable is the client and table name behind a store, for tests that
// look at index items directly.
type rawTable struct {
	*dynamodb.Client
	table string
}

// wordItems counts the word items of a partition with the given sort key.
func wordItems(t *testing.T, client rawTable, pk, sk string) int {
	t.Helper()
	out, err := client.Query(context.Background(), &dynamodb.QueryInput{TableName: aws.String(client.table),
		KeyConditionExpression: aws.String("pk = :pk AND sk = :sk"),
		ExpressionAttributeValues: map[string]types.AttributeValue{
			":pk": &types.AttributeValueMemberS{Value: pk}, ":sk": &types.AttributeValueMemberS{Value: sk}}})
	must(t, err)
	return len(out.Items)
}
