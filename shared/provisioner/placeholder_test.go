package provisioner_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/edu-invite/invite/shared/auth"
	"github.com/edu-invite/invite/shared/service"
)

// The placeholder rule at the SP is one rule: a user the SP first hears of
// after accepting an invitation with a placeholder id is created with it
// as externalId, and a user the SP knew before gets it at that acceptance;
// a later sign-in with unchanged attributes keeps it either way.
func TestPlaceholderIsTheExternalIDAtCreationAndAtUpdate(t *testing.T) {
	for _, known := range []bool{false, true} {
		name := "created after the acceptance"
		if known {
			name = "known at the SP before"
		}
		t.Run(name, func(t *testing.T) {
			f := newFixture(t, "PATCH", "right-token")
			ctx := context.Background()
			const email = "pia@example.org"
			person := &auth.Person{Sub: "sub-" + email, EduPersonPrincipalName: email, Email: email, GivenName: "Given", FamilyName: "Family"}
			if known {
				f.acceptedGuest(t, email)
				f.deliver(t, f.queue.Take(), 1)
				if users := f.sp.Users(); len(users) != 1 || users[0].ExternalID != email {
					t.Fatalf("SP users before the placeholder %+v, want pia with her eppn", users)
				}
			}
			role, err := f.svc.CreateRole(ctx, superUser, service.RoleInput{OrganizationGUID: "org-test", Name: "Wiki staff",
				ApplicationUsages: []service.ApplicationUsageInput{{ManageID: "wiki"}}})
			if err != nil {
				t.Fatal(err)
			}
			expiry := time.Now().Add(time.Hour)
			res, err := f.svc.Invite(ctx, superUser, service.InvitationInput{IntendedAuthority: "GUEST", RoleIDs: []int64{role.ID}, ExpiryDate: &expiry,
				SuppressSendingEmails: true, WithPlaceholders: []service.PlaceholderRecipient{{Email: email, InternalPlaceholderIdentifier: "hr-7"}}})
			if err != nil {
				t.Fatal(err)
			}
			url := res.URLs[0].InvitationURL
			if _, err := f.svc.Accept(ctx, &auth.Principal{Kind: auth.KindPerson, Person: person}, url[strings.Index(url, "hash=")+5:], 0); err != nil {
				t.Fatal(err)
			}
			f.deliver(t, f.queue.Take(), 1)
			users := f.sp.Users()
			if len(users) != 1 || users[0].ExternalID != "hr-7" {
				t.Fatalf("SP users after the acceptance %+v, want pia once with the placeholder", users)
			}

			u, err := f.store.GetUserBySub(ctx, person.Sub)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := f.svc.PersonLoggedIn(ctx, u, *person); err != nil {
				t.Fatal(err)
			}
			if more := f.queue.Take(); len(more) > 0 {
				f.deliver(t, more, 1)
			}
			if users := f.sp.Users(); len(users) != 1 || users[0].ExternalID != "hr-7" {
				t.Errorf("SP users after a sign-in %+v, want the placeholder kept", users)
			}
		})
	}
}
