package dynamo_test

import (
	"slices"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/edu-invite/invite/shared/domain"
)

// TestUserSearchOfOlderItemsAfterTheRepair: word items without their
// listing key and words, and organization items without words (as older
// versions wrote them), are trusted by the search: it reads no user to
// complete them, so they match nothing, and the page costs one request
// less than a page with people on it. The index repair rewrites them once;
// then the word search and the small organization's search (whose
// candidates come from its listing) find the right people again.
func TestUserSearchOfOlderItemsAfterTheRepair(t *testing.T) {
	s, requests, raw := boundedSearchStoreWithTable(t)
	cases := []struct {
		name, org, query string
		want             []string
	}{
		{"a selective word", "", "olga", []string{"Olga One", "Olga Two"}},
		{"two words in an organization", "org-1", "anna jansen", []string{"Anna A Jansen", "Anna B Jansen", "Anna C Jansen"}},
		{"common word, organization within the bound", "org-2", "example", []string{"Olga One", "Olga Two", "Otto Three"}},
		{"two common words, organization within the bound", "org-2", "uni example", []string{"Olga One", "Olga Two", "Otto Three"}},
	}
	search := func(org, query string) ([]string, int64, int64) {
		t.Helper()
		before := requests()
		page, err := s.SearchUsers(ctx(t), domain.UserSearch{OrganizationGUID: org, Page: domain.PageRequest{Query: query, Size: 10}})
		must(t, err)
		return names(page.Items), page.Total, requests() - before
	}
	current := map[string]int64{}
	for _, c := range cases {
		got, total, n := search(c.org, c.query)
		if !slices.Equal(got, c.want) || total != int64(len(c.want)) {
			t.Fatalf("%s on current items: %v (total %d), want %v", c.name, got, total, c.want)
		}
		current[c.name] = n
	}

	// Age the items: strip what older versions did not write.
	aged := map[string]int{}
	in := &dynamodb.ScanInput{TableName: aws.String(raw.table)}
	for {
		out, err := raw.Scan(ctx(t), in)
		must(t, err)
		for _, it := range out.Items {
			entity := stringAttr(it, "entity")
			switch entity {
			case "UserWord":
				delete(it, "listingSk")
				delete(it, "words")
			case "UserOrganization":
				delete(it, "words")
			default:
				continue
			}
			putRaw(t, raw, it)
			aged[entity]++
		}
		if len(out.LastEvaluatedKey) == 0 {
			break
		}
		in.ExclusiveStartKey = out.LastEvaluatedKey
	}
	if aged["UserWord"] == 0 || aged["UserOrganization"] == 0 {
		t.Fatalf("aged %v", aged)
	}
	for _, c := range cases {
		got, total, n := search(c.org, c.query)
		if len(got) != 0 || total != 0 {
			t.Errorf("%s before the repair: %v (total %d); want none: the older items are not read around", c.name, got, total)
		}
		// The page's users are the one BatchGetItem a page with people
		// costs (in an organization, the check of who belongs to it one
		// more); no read of users is made for the older items.
		if n > current[c.name]-1 {
			t.Errorf("%s before the repair: %d requests, want at most %d (those of a current page, without its users)", c.name, n, current[c.name]-1)
		}
	}

	if res := repairAll(t, s, 10); res.WordItemsWritten < aged["UserWord"] {
		t.Errorf("the repair wrote %d word items, want the %d aged ones", res.WordItemsWritten, aged["UserWord"])
	}
	for _, c := range cases {
		got, total, n := search(c.org, c.query)
		if !slices.Equal(got, c.want) || total != int64(len(c.want)) || n != current[c.name] {
			t.Errorf("%s after the repair: %v (total %d) in %d requests, want %v in %d", c.name, got, total, n, c.want, current[c.name])
		}
	}
	// Every organization item carries its user's words again.
	out, err := raw.GetItem(ctx(t), &dynamodb.GetItemInput{TableName: aws.String(raw.table), Key: map[string]types.AttributeValue{
		"pk": &types.AttributeValueMemberS{Value: "USER#30"}, "sk": &types.AttributeValueMemberS{Value: "ORG#org-2"}}})
	must(t, err)
	if w, ok := out.Item["words"].(*types.AttributeValueMemberL); !ok || len(w.Value) == 0 {
		t.Errorf("organization item of user 30 after the repair: %v", out.Item)
	}
}

// TestOrganizationSearchFollowsUserChanges: the organization items carry
// the user's words through the projection step, so a renamed user is
// found by its new name (and not its old one) by the search of a small
// organization, whose candidates are its listing's items.
func TestOrganizationSearchFollowsUserChanges(t *testing.T) {
	s, _ := boundedSearchStore(t)
	u, err := s.GetUser(ctx(t), 31)
	must(t, err)
	u.Name = "Olga Jansen" // jansen names more people than the bound: org-2's listing answers
	must(t, s.UpdateUser(ctx(t), u, nil))
	for query, want := range map[string][]string{"jansen": {"Olga Jansen"}, "two": nil, "example olga": {"Olga Jansen", "Olga One"}} {
		page, err := s.SearchUsers(ctx(t), domain.UserSearch{OrganizationGUID: "org-2", Page: domain.PageRequest{Query: query, Size: 10}})
		must(t, err)
		if got := names(page.Items); !slices.Equal(got, want) {
			t.Errorf("org-2 %q after the rename: %v, want %v", query, got, want)
		}
	}
}
