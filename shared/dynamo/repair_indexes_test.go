package dynamo_test

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/edu-invite/invite/shared/domain"
	"github.com/edu-invite/invite/shared/dynamo"
)

// tableItems are every item of the table, in a canonical text form.
func tableItems(t *testing.T, client rawTable) []string {
	t.Helper()
	var out []string
	in := &dynamodb.ScanInput{TableName: aws.String(client.table)}
	for {
		page, err := client.Scan(ctx(t), in)
		must(t, err)
		for _, it := range page.Items {
			var plain map[string]any
			must(t, attributevalue.UnmarshalMap(it, &plain))
			raw, err := json.Marshal(plain)
			must(t, err)
			out = append(out, string(raw))
		}
		if len(page.LastEvaluatedKey) == 0 {
			break
		}
		in.ExclusiveStartKey = page.LastEvaluatedKey
	}
	slices.Sort(out)
	return out
}

// ageTable rewrites the table into the shape older versions left: word
// items without listingSk and words (one missing altogether), no role
// member counters, no organization items or counts, user items without
// role summaries.
func ageTable(t *testing.T, client rawTable) {
	t.Helper()
	in := &dynamodb.ScanInput{TableName: aws.String(client.table)}
	droppedWord := false
	for {
		page, err := client.Scan(ctx(t), in)
		must(t, err)
		for _, it := range page.Items {
			pk := it["pk"].(*types.AttributeValueMemberS).Value
			sk := it["sk"].(*types.AttributeValueMemberS).Value
			entity := ""
			if e, ok := it["entity"].(*types.AttributeValueMemberS); ok {
				entity = e.Value
			}
			switch {
			case entity == "UserWord" && !droppedWord && strings.HasPrefix(sk, "curie#"):
				deleteItem(t, client, pk, sk)
				droppedWord = true
			case entity == "UserWord":
				delete(it, "listingSk")
				delete(it, "words")
				putRaw(t, client, it)
			case strings.HasPrefix(pk, "COUNT#members#"), strings.HasPrefix(pk, "COUNT#orgusers#"), entity == "UserOrganization":
				deleteItem(t, client, pk, sk)
			case entity == "Role", entity == "UserRole":
				// Older versions wrote no members index.
				for _, name := range []string{"membersListed", "gsi4pk", "gsi4sk", "listed", "memberName", "memberGivenName",
					"memberFamilyName", "memberEmail", "memberSchacHome", "memberOrganizationGUID"} {
					delete(it, name)
				}
				putRaw(t, client, it)
			case entity == "User":
				for name := range it {
					if strings.HasPrefix(name, "rs") {
						delete(it, name)
					}
				}
				putRaw(t, client, it)
			}
		}
		if len(page.LastEvaluatedKey) == 0 {
			break
		}
		in.ExclusiveStartKey = page.LastEvaluatedKey
	}
	if !droppedWord {
		t.Fatal("no word item curie#… to drop")
	}
}

func putRaw(t *testing.T, client rawTable, it map[string]types.AttributeValue) {
	t.Helper()
	_, err := client.PutItem(ctx(t), &dynamodb.PutItemInput{TableName: aws.String(client.table), Item: it})
	must(t, err)
}

// repairAll runs RepairIndexes from the start until done, limit roles or
// users a call, and sums what it did.
func repairAll(t *testing.T, s *dynamo.Store, limit int) domain.IndexRepair {
	t.Helper()
	var sum domain.IndexRepair
	cursor := ""
	for calls := 0; ; calls++ {
		if calls > 50 {
			t.Fatal("the repair does not end")
		}
		res, err := s.RepairIndexes(ctx(t), cursor, limit)
		must(t, err)
		sum.Roles += res.Roles
		sum.Users += res.Users
		sum.RoleCountsRepaired += res.RoleCountsRepaired
		sum.MembersIndexesBuilt += res.MembersIndexesBuilt
		sum.WordItemsWritten += res.WordItemsWritten
		sum.SummariesWritten += res.SummariesWritten
		if res.Done {
			return sum
		}
		if res.Next == "" {
			t.Fatalf("call %d: not done and no cursor", calls)
		}
		cursor = res.Next
	}
}

// memberCountShards reads the member counter shards of a role: their sum
// and whether every one is exact.
func memberCountShards(t *testing.T, client rawTable, roleID int64) (int64, bool) {
	t.Helper()
	var sum int64
	exact := true
	for shard := range 4 {
		out, err := client.GetItem(ctx(t), &dynamodb.GetItemInput{TableName: aws.String(client.table),
			Key: map[string]types.AttributeValue{"pk": &types.AttributeValueMemberS{Value: fmt.Sprint("COUNT#members#", roleID, "#", shard)},
				"sk": &types.AttributeValueMemberS{Value: "COUNT"}}})
		must(t, err)
		var rec struct {
			Value int64 `dynamodbav:"value"`
			Exact bool  `dynamodbav:"exact"`
		}
		must(t, attributevalue.UnmarshalMap(out.Item, &rec))
		sum += rec.Value
		exact = exact && len(out.Item) > 0 && rec.Exact
	}
	return sum, exact
}

// TestRepairIndexesRebuildsOldData: a table in the shape older versions
// wrote is repaired by RepairIndexes (words, member counters, organization
// items, role summaries), the searches and counts are then right and
// cheap, and a second run writes nothing.
func TestRepairIndexesRebuildsOldData(t *testing.T) {
	s, client := searchStore(t) // org-1: Marie Curie, Pierre Curie, Ada Lovelace (role 1); org-2: Marie Turing (role 2)
	grant(t, s, 1, 2, 12)       // Marie Curie holds role 2 too
	want := map[string][]string{"org-1": orgListing(t, s, "org-1"), "org-2": orgListing(t, s, "org-2"), "curie": search(t, s, "", "curie")}

	ageTable(t, client)
	if got := orgListing(t, s, "org-1"); len(got) != 0 {
		t.Fatalf("aged table still lists org-1: %q", got)
	}
	// Word items without listing key and words are trusted, not read
	// around: until the repair they find no one.
	if got := search(t, s, "", "marie"); len(got) != 0 {
		t.Fatalf("aged word items still find %q", got)
	}
	if got := search(t, s, "", "curie"); slices.Equal(got, want["curie"]) {
		t.Fatalf("aged table without a word item still finds %q", got)
	}

	for roleID := range int64(2) {
		if n := membersIndexItems(t, client, roleID+1); n != 0 {
			t.Fatalf("aged role %d still has %d members index items", roleID+1, n)
		}
	}
	first := repairAll(t, s, 2)
	if first.Roles != 2 || first.Users != 4 || first.RoleCountsRepaired != 2 || first.MembersIndexesBuilt != 2 ||
		first.SummariesWritten != 4 || first.WordItemsWritten == 0 {
		t.Errorf("first run: %+v", first)
	}
	for name, org := range map[string]string{"org-1": "org-1", "org-2": "org-2"} {
		if got := orgListing(t, s, org); !slices.Equal(got, want[name]) {
			t.Errorf("%s after the repair: %q, want %q", org, got, want[name])
		}
	}
	if got := search(t, s, "", "curie"); !slices.Equal(got, want["curie"]) {
		t.Errorf("curie after the repair: %q, want %q", got, want["curie"])
	}
	mustSummarize(t, s, "marie", 1, "repaired Marie Curie")
	mustSummarize(t, s, "turing", 4, "repaired Marie Turing")
	for roleID, members := range map[int64]int64{1: 3, 2: 2} {
		if sum, exact := memberCountShards(t, client, roleID); sum != members || !exact {
			t.Errorf("role %d counter: %d (exact %v), want %d", roleID, sum, exact, members)
		}
		// The role and each membership are in the role's members index.
		if n := membersIndexItems(t, client, roleID); n != int(members)+1 {
			t.Errorf("role %d members index: %d items, want the role and %d memberships", roleID, n, members)
		}
	}
	// Word items carry their listing key and words again: a word search
	// costs no read of the users it does not show.
	if n := wordItems(t, client, "UWORD#cu", "curie#1"); n != 1 {
		t.Errorf("word item curie#1: %d", n)
	}
	page, err := s.SearchUsersWithRoles(ctx(t), domain.UserSearch{Page: domain.PageRequest{Query: "curie", Size: 1}})
	must(t, err)
	if len(page.Items) != 1 || page.Total != 2 || !page.Items[0].UserRolesKnown {
		t.Errorf("page of one curie: %+v", page)
	}

	before := tableItems(t, client)
	second := repairAll(t, s, 2)
	if second.RoleCountsRepaired != 0 || second.MembersIndexesBuilt != 0 || second.SummariesWritten != 0 || second.WordItemsWritten != 0 || second.Users != 4 {
		t.Errorf("second run: %+v", second)
	}
	if after := tableItems(t, client); !slices.Equal(before, after) {
		t.Errorf("the second run changed the table:\nbefore %q\nafter  %q", before, after)
	}
}

// TestRepairIndexesRefusesForeignCursor: a cursor that is not the
// repair's own is refused.
func TestRepairIndexesRefusesForeignCursor(t *testing.T) {
	s := newStore(t)
	for _, cursor := range []string{"not base64!", "eyJnc2kycGsiOiJVU0VSIzEifQ", "e30"} {
		_, err := s.RepairIndexes(ctx(t), cursor, 10)
		mustKind(t, err, domain.KindInvalid)
	}
}

// membersIndexItems counts the role and membership items in a role's
// members index (gsi4 ROLE#<id>).
func membersIndexItems(t *testing.T, client rawTable, roleID int64) int {
	t.Helper()
	out, err := client.Query(ctx(t), &dynamodb.QueryInput{TableName: aws.String(client.table), IndexName: aws.String("gsi4"),
		KeyConditionExpression:    aws.String("gsi4pk = :pk"),
		ExpressionAttributeValues: map[string]types.AttributeValue{":pk": &types.AttributeValueMemberS{Value: fmt.Sprintf("ROLE#%d", roleID)}}})
	must(t, err)
	n := 0
	for _, it := range out.Items {
		if e, ok := it["entity"].(*types.AttributeValueMemberS); ok && (e.Value == "Role" || e.Value == "UserRole") {
			n++
		}
	}
	return n
}
