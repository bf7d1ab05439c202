package provisioner_test

import (
	"bytes"
	"context"
	"net/http"
	"testing"

	"github.com/edu-invite/invite/localstack/scimsp"
	"github.com/edu-invite/invite/shared/domain"
)

// An SP account whose userName differs from the user's only in case makes
// the creation a 409 (userName is case-insensitive); the look-up after it
// matches case-insensitively whatever filters the SP supports, the account
// is adopted (linked, put in the group, no second account) and nothing is
// dead-lettered.
func TestConflictDifferingInCaseAdoptsAtEverySP(t *testing.T) {
	for _, tc := range []struct {
		name     string
		opts     scimsp.Options
		existing string
	}{
		{"all filters, upper case", scimsp.Options{Filters: scimsp.FiltersAll}, "ALICE@EXAMPLE.ORG"},
		{"all filters, mixed case", scimsp.Options{Filters: scimsp.FiltersAll}, "Alice@Example.org"},
		{"no externalId filter", scimsp.Options{Filters: scimsp.FiltersNoExternalID}, "ALICE@EXAMPLE.ORG"},
		{"no filters", scimsp.Options{Filters: scimsp.FiltersNone}, "Alice@Example.org"},
		{"case-exact filters", scimsp.Options{Unreliable: scimsp.Unreliable{CaseExactFilters: true}}, "Alice@EXAMPLE.org"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.opts.BearerToken = "right-token"
			f := newFixtureOf(t, "PATCH", "right-token", tc.opts)
			body := `{"schemas":["urn:ietf:params:scim:schemas:core:2.0:User"],"userName":"` + tc.existing + `","externalId":"hr-42"}`
			req, err := http.NewRequest(http.MethodPost, f.spURL+"/v1/Users", bytes.NewBufferString(body))
			if err != nil {
				t.Fatal(err)
			}
			req.Header.Set("Authorization", "Bearer right-token")
			req.Header.Set("Content-Type", "application/scim+json")
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if resp.StatusCode != http.StatusCreated {
				t.Fatalf("pre-existing account: %d", resp.StatusCode)
			}
			existing := f.sp.Users()[0].ID

			roleID := f.acceptedGuest(t, "alice@example.org")
			ds := f.queue.Take()
			f.deliver(t, ds, 1)
			if len(f.dlq.reasons) != 0 {
				t.Fatalf("dead letters: %v", f.dlq.reasons)
			}
			var userID int64
			for _, d := range ds {
				if d.Kind == domain.DeliverUserCreate {
					userID = d.UserID
				}
			}
			link, err := f.store.GetLink(context.Background(), domain.ResourceUser, userID, "wiki-sp")
			if err != nil || link.RemoteID != existing {
				t.Errorf("user link %+v, %v; want the existing account %s", link, err, existing)
			}
			groups := f.sp.Groups()
			if len(f.sp.Users()) != 1 || len(groups) != 1 || len(groups[0].Members) != 1 || groups[0].Members[0].Value != existing {
				t.Errorf("SP users %+v groups %+v: want the existing account adopted and in role %d's group", f.sp.Users(), groups, roleID)
			}
		})
	}
}
