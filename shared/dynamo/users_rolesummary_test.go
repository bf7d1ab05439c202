package dynamo_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/edu-invite/invite/shared/domain"
	"github.com/edu-invite/invite/shared/dynamo"
)

// foundRoles is what a search of everyone for query says of the user's
// memberships: the summary (known) or nothing.
func foundRoles(t *testing.T, s *dynamo.Store, query string, userID int64) ([]domain.UserRole, bool) {
	t.Helper()
	page, err := s.SearchUsersWithRoles(ctx(t), domain.UserSearch{Page: domain.PageRequest{Query: query, Size: 100}})
	must(t, err)
	for _, f := range page.Items {
		if f.User.ID == userID {
			return f.UserRoles, f.UserRolesKnown
		}
	}
	t.Fatalf("user %d not found by %q", userID, query)
	return nil, false
}

// summaryOf keeps what the summary holds of memberships, for comparison.
func summaryOf(urs []domain.UserRole) []string {
	out := make([]string, 0, len(urs))
	for _, ur := range urs {
		end := ""
		if ur.EndDate != nil {
			end = ur.EndDate.UTC().Format(time.RFC3339Nano)
		}
		out = append(out, fmt.Sprint(ur.ID, "/", ur.UserID, "/", ur.RoleID, "/", ur.Authority, "/", end, "/guest role ", ur.GuestRoleIncluded))
	}
	return out
}

// mustSummarize checks that the search's summary of the user is known and
// equals the user's memberships as stored.
func mustSummarize(t *testing.T, s *dynamo.Store, query string, userID int64, step string) {
	t.Helper()
	got, known := foundRoles(t, s, query, userID)
	stored, err := s.ListUserRolesOfUser(ctx(t), userID)
	must(t, err)
	if !known {
		t.Fatalf("%s: the summary of user %d is not known", step, userID)
	}
	if !slices.Equal(summaryOf(got), summaryOf(stored)) {
		t.Errorf("%s: summary %q, stored %q", step, summaryOf(got), summaryOf(stored))
	}
}

// TestRoleSummaryFollowsEveryMembershipWrite: acceptance (new and existing
// user, new and updated memberships), user_role update, user update,
// DeleteUserRoles and ApplyRemoval each leave the user item's summary
// equal to the memberships.
func TestRoleSummaryFollowsEveryMembershipWrite(t *testing.T) {
	s, _ := searchStore(t) // Marie Curie (1) holds role 1
	createRole(t, s, 3, "org-1")
	mustSummarize(t, s, "curie", 1, "new user")

	grant(t, s, 1, 2, 12)
	grant(t, s, 1, 3, 13)
	mustSummarize(t, s, "curie", 1, "granted roles 2 and 3")

	// A re-acceptance that extends role 1 and adds nothing.
	u, err := s.GetUser(ctx(t), 1)
	must(t, err)
	ur, err := s.GetUserRole(ctx(t), 1, 1)
	must(t, err)
	later := testNow.AddDate(1, 0, 0)
	ur.EndDate = &later
	must(t, s.SaveAcceptance(ctx(t), domain.Acceptance{User: u, UpdatedUserRoles: []domain.UserRole{ur}}))
	mustSummarize(t, s, "curie", 1, "extended role 1")

	ur, err = s.GetUserRole(ctx(t), 1, 2)
	must(t, err)
	ur.Authority, ur.EndDate, ur.GuestRoleIncluded = domain.Inviter, nil, true
	must(t, s.UpdateUserRole(ctx(t), ur, nil, nil))
	mustSummarize(t, s, "curie", 1, "role 2 made inviter with the guest role, without end")

	u, err = s.GetUser(ctx(t), 1)
	must(t, err)
	u.GivenName, u.Name = "Maria", "Maria Curie"
	must(t, s.UpdateUser(ctx(t), u, nil))
	mustSummarize(t, s, "maria", 1, "renamed user")

	ur, err = s.GetUserRole(ctx(t), 1, 3)
	must(t, err)
	must(t, s.DeleteUserRoles(ctx(t), []domain.UserRole{ur}, nil, nil))
	mustSummarize(t, s, "maria", 1, "role 3 deleted")

	revoke(t, s, 1, 1)
	revoke(t, s, 1, 2)
	mustSummarize(t, s, "maria", 1, "every role removed")
	if got, _ := foundRoles(t, s, "maria", 1); len(got) != 0 {
		t.Errorf("no memberships left, summary %q", summaryOf(got))
	}
	// The other users' summaries are untouched.
	mustSummarize(t, s, "pierre", 2, "other user")
}

// TestRoleSummaryOfManyRolesIsNotKept: a user with more memberships than a
// summary holds has none (the search reads them), both when seeded and
// when they arrive one acceptance after another, and the user item stays
// small.
func TestRoleSummaryOfManyRolesIsNotKept(t *testing.T) {
	s, client := searchStore(t)
	const many = dynamo.MaxRoleSummaries + 1
	seed := domain.Seed{Users: []domain.User{{ID: 500, Sub: "sub-500", GivenName: "Polly", FamilyName: "Many", Name: "Polly Many",
		Email: "polly@example.org", CreatedAt: testNow}}}
	for i := range int64(many) {
		r := role(1000+i, fmt.Sprint("Many ", i))
		seed.Roles = append(seed.Roles, r)
		seed.UserRoles = append(seed.UserRoles, membership(5000+i, 500, r.ID))
	}
	// Quinn holds as many roles as a summary keeps.
	seed.Users = append(seed.Users, domain.User{ID: 501, Sub: "sub-501", GivenName: "Quinn", FamilyName: "Max", Name: "Quinn Max",
		Email: "quinn@example.org", CreatedAt: testNow})
	for i := range int64(many - 1) {
		seed.UserRoles = append(seed.UserRoles, membership(7000+i, 501, 1000+i))
	}
	must(t, s.Seed(ctx(t), seed))
	if _, known := foundRoles(t, s, "polly", 500); known {
		t.Errorf("a summary of %d memberships is kept", many)
	}
	mustSummarize(t, s, "quinn", 501, "seeded at the bound")
	// Rebuilt whole by the repair (the largest update it writes).
	stripSummary(t, client, 501)
	if _, known := foundRoles(t, s, "quinn", 501); known {
		t.Fatal("the stripped summary is still known")
	}
	if res := repairAll(t, s, 100); res.SummariesWritten != 1 {
		t.Errorf("repair: %+v", res)
	}
	mustSummarize(t, s, "quinn", 501, "rebuilt at the bound")

	// Marie Curie (user 1, one role) gains roles up to the bound and past it.
	for i := range int64(many - 2) {
		grant(t, s, 1, 1000+i, 9000+i)
	}
	mustSummarize(t, s, "curie", 1, "at the bound")
	grant(t, s, 1, 1000+many-2, 9000+many-2)
	if _, known := foundRoles(t, s, "curie", 1); known {
		t.Errorf("past the bound the summary is still known")
	}
	if size := userItemSize(t, client, 1); size > 32*1024 {
		t.Errorf("user item of %d bytes", size)
	}
	// Back under the bound by removals, the summary is whole again.
	revoke(t, s, 1, 1000+many-2)
	revoke(t, s, 1, 1000)
	mustSummarize(t, s, "curie", 1, "back under the bound")
}

// userItemSize is the size of a user item as DynamoDB counts it (names and
// values; numbers by their digits).
func userItemSize(t *testing.T, client rawTable, userID int64) int {
	t.Helper()
	out, err := client.GetItem(context.Background(), &dynamodb.GetItemInput{TableName: aws.String(client.table),
		Key: map[string]types.AttributeValue{"pk": &types.AttributeValueMemberS{Value: fmt.Sprint("USER#", userID)},
			"sk": &types.AttributeValueMemberS{Value: "USER"}}})
	must(t, err)
	var size func(v types.AttributeValue) int
	size = func(v types.AttributeValue) int {
		switch v := v.(type) {
		case *types.AttributeValueMemberS:
			return len(v.Value)
		case *types.AttributeValueMemberN:
			return len(v.Value)
		case *types.AttributeValueMemberM:
			n := 3
			for k, e := range v.Value {
				n += len(k) + size(e) + 1
			}
			return n
		case *types.AttributeValueMemberL:
			n := 3
			for _, e := range v.Value {
				n += size(e) + 1
			}
			return n
		default:
			return 1
		}
	}
	n := 0
	for k, v := range out.Item {
		n += len(k) + size(v)
	}
	return n
}

// TestRemovingAMembershipWithoutItsUser: a membership whose user item is
// gone (left by an older version) is still removed, and the summary
// update creates no stray user item.
func TestRemovingAMembershipWithoutItsUser(t *testing.T) {
	s, client := searchStore(t) // Ada Lovelace (3) holds role 1, Pierre Curie (2) too
	ada, err := s.GetUserRole(ctx(t), 3, 1)
	must(t, err)
	pierre, err := s.GetUserRole(ctx(t), 2, 1)
	must(t, err)
	deleteItem(t, client, "USER#3", "USER")
	must(t, s.DeleteUserRoles(ctx(t), []domain.UserRole{ada, pierre}, nil, nil))
	if _, err := s.GetUserRole(ctx(t), 3, 1); !domain.IsNotFound(err) {
		t.Errorf("the orphan membership is still there: %v", err)
	}
	if _, err := s.GetUser(ctx(t), 3); !domain.IsNotFound(err) {
		t.Errorf("a user item was created again: %v", err)
	}
	mustSummarize(t, s, "pierre", 2, "removed along with the orphan")
}

// stripSummary removes the role summary from a user item, as an older
// version wrote it.
func stripSummary(t *testing.T, client rawTable, userID int64) {
	t.Helper()
	out, err := client.GetItem(context.Background(), &dynamodb.GetItemInput{TableName: aws.String(client.table),
		Key: map[string]types.AttributeValue{"pk": &types.AttributeValueMemberS{Value: fmt.Sprint("USER#", userID)},
			"sk": &types.AttributeValueMemberS{Value: "USER"}}})
	must(t, err)
	for name := range out.Item {
		if strings.HasPrefix(name, "rs") {
			delete(out.Item, name)
		}
	}
	putRaw(t, client, out.Item)
}
