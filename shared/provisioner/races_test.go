package provisioner_test

import (
	"bytes"
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/edu-invite/invite/localstack/scimsp"
	"github.com/edu-invite/invite/shared/auth"
	"github.com/edu-invite/invite/shared/domain"
	"github.com/edu-invite/invite/shared/provisioner"
	"github.com/edu-invite/invite/shared/service"
)

// linksReadHook runs a function once, just after the first batched read of
// user links (the moment a group's line has read which members the SP has)
// and hands back what was read before it ran.
type linksReadHook struct {
	provisioner.Store
	hook func()
}

func (h *linksReadHook) GetLinksAt(ctx context.Context, kind domain.ResourceKind, ids []int64, spID string) (map[int64]domain.SPLink, error) {
	links, err := h.Store.GetLinksAt(ctx, kind, ids, spID)
	if hook := h.hook; hook != nil {
		h.hook = nil
		hook()
	}
	return links, err
}

// accept invites email to the role as a guest and accepts as that person.
func (f *fixture) accept(t *testing.T, roleID int64, email string) {
	t.Helper()
	f.acceptWith(t, roleID, email, domain.Guest)
}

// acceptWith invites email to the role with an authority and accepts.
func (f *fixture) acceptWith(t *testing.T, roleID int64, email string, authority domain.Authority) {
	t.Helper()
	ctx := context.Background()
	expiry := time.Now().Add(time.Hour)
	res, err := f.svc.Invite(ctx, superUser, service.InvitationInput{IntendedAuthority: string(authority), Invites: []string{email},
		RoleIDs: []int64{roleID}, ExpiryDate: &expiry, SuppressSendingEmails: true})
	if err != nil {
		t.Fatal(err)
	}
	secret := res.URLs[0].InvitationURL[strings.Index(res.URLs[0].InvitationURL, "hash=")+5:]
	person := &auth.Principal{Kind: auth.KindPerson, Person: &auth.Person{Sub: "sub-" + email, EduPersonPrincipalName: email,
		Email: email, GivenName: "Given", FamilyName: "Family"}}
	if _, err := f.svc.Accept(ctx, person, secret, 0); err != nil {
		t.Fatal(err)
	}
}

// deliver hands the deliveries of the wiki SP to the provisioner and wants
// them all done.
func (f *fixture) deliver(t *testing.T, ds []domain.Delivery, receiveCount int) {
	t.Helper()
	resp, err := f.prov.HandleSQS(context.Background(), batch(t, ds, "wiki-sp", receiveCount))
	if err != nil || len(resp.BatchItemFailures) != 0 {
		t.Fatalf("failures %v, err %v, dead letters %v", resp.BatchItemFailures, err, f.dlq.reasons)
	}
}

// A group update (a rename, a rename in case only) whose line reads the
// members while a new member's own line adds them at the SP must not undo
// that add: the SP ends with every member the service holds.
func TestGroupUpdateAroundAnAcceptanceKeepsTheNewMember(t *testing.T) {
	for _, tc := range []struct{ name, rename string }{
		{"rename", "Wiki authors"},
		{"case-only rename", "WIKI EDITORS ALICE@EXAMPLE.ORG"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t, "PATCH", "right-token")
			ctx := context.Background()
			roleID := f.acceptedGuest(t, "alice@example.org")
			f.deliver(t, f.queue.Take(), 1) // the group, alice, her membership
			if _, err := f.svc.UpdateRole(ctx, superUser, roleID, service.RoleInput{Name: tc.rename,
				ApplicationUsages: []service.ApplicationUsageInput{{ManageID: "wiki"}}}); err != nil {
				t.Fatal(err)
			}
			update := f.queue.Take()
			f.accept(t, roleID, "bob@example.org")
			bobsLine := f.queue.Take()

			inner := f.prov.Store
			f.prov.Store = &linksReadHook{Store: inner, hook: func() {
				f.prov.Store = inner
				f.deliver(t, bobsLine, 1) // bob created and added while the update runs
			}}
			f.deliver(t, update, 1)
			f.prov.Store = inner

			groups, users := f.sp.Groups(), f.sp.Users()
			if len(groups) != 1 || groups[0].DisplayName != tc.rename || len(users) != 2 {
				t.Fatalf("SP groups %+v, users %d", groups, len(users))
			}
			if len(groups[0].Members) != 2 {
				t.Fatalf("SP group members %+v, want alice and bob", groups[0].Members)
			}
		})
	}
}

// At an SP whose PATCH add is not idempotent, a retry of a membership whose
// first answer was lost checks before it adds: the member is there once.
func TestRetriedAddAtANonIdempotentSPAddsOnce(t *testing.T) {
	f := newFixtureOf(t, "PATCH", "right-token", scimsp.Options{BearerToken: "right-token",
		Unreliable: scimsp.Unreliable{PatchAddRepeats: true}})
	f.acceptedGuest(t, "alice@example.org")
	ds := f.queue.Take()
	f.deliver(t, ds, 1)
	f.deliver(t, ds, 2) // as if the answers were lost: the same messages again
	groups := f.sp.Groups()
	if len(groups) != 1 || len(groups[0].Members) != 1 || len(f.sp.Users()) != 1 {
		t.Fatalf("SP groups %+v, users %d: want one group with alice once", groups, len(f.sp.Users()))
	}
}

// An SP account whose userName differs only in case makes the creation a
// 409; at an SP whose filters compare case-exactly the look-up by userName
// finds nothing, and the listing, compared case-insensitively, finds it:
// the account is adopted, nothing is dead-lettered.
func TestConflictWithAUserNameDifferingInCaseAdoptsTheAccount(t *testing.T) {
	f := newFixtureOf(t, "PATCH", "right-token", scimsp.Options{BearerToken: "right-token",
		Unreliable: scimsp.Unreliable{CaseExactFilters: true}})
	body := `{"schemas":["urn:ietf:params:scim:schemas:core:2.0:User"],"userName":"ALICE@EXAMPLE.ORG","externalId":"hr-42"}`
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

	f.acceptedGuest(t, "alice@example.org")
	f.deliver(t, f.queue.Take(), 1)
	if len(f.dlq.reasons) != 0 {
		t.Fatalf("dead letters: %v", f.dlq.reasons)
	}
	groups := f.sp.Groups()
	if len(f.sp.Users()) != 1 || len(groups) != 1 || len(groups[0].Members) != 1 || groups[0].Members[0].Value != existing {
		t.Fatalf("SP users %+v groups %+v: want the existing account adopted and in the group", f.sp.Users(), groups)
	}
}
