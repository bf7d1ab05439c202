package provisioner_test

import (
	"context"
	"fmt"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-lambda-go/events"

	"github.com/edu-invite/invite/localstack/scimsp"
	"github.com/edu-invite/invite/shared/auth"
	"github.com/edu-invite/invite/shared/config"
	"github.com/edu-invite/invite/shared/domain"
	"github.com/edu-invite/invite/shared/dynamo/dynamotest"
	"github.com/edu-invite/invite/shared/metrics"
	"github.com/edu-invite/invite/shared/provisioner"
	"github.com/edu-invite/invite/shared/scim"
	"github.com/edu-invite/invite/shared/secrets"
	"github.com/edu-invite/invite/shared/service"
	"github.com/edu-invite/invite/shared/sqs"
	"github.com/edu-invite/invite/shared/testkit"
)

type recordingDLQ struct {
	reasons map[string]string
}

func (r *recordingDLQ) Send(_ context.Context, d domain.Delivery, reason string) error {
	r.reasons[d.ID] = reason
	return nil
}

type countingMetrics struct {
	mu     sync.Mutex
	counts map[string]int
}

func (m *countingMetrics) Delivery(sp string, o metrics.Outcome, _ time.Duration) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.counts[sp+"/"+string(o)]++
}

func (m *countingMetrics) count(sp string, o metrics.Outcome) int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.counts[sp+"/"+string(o)]
}

type fixture struct {
	metrics *countingMetrics
	svc     *service.Service
	prov    *provisioner.Provisioner
	queue   *testkit.RecordingQueue // the test decides when (and how often) each delivery reaches the provisioner
	dlq     *recordingDLQ
	sp      *scimsp.SP
	spURL   string
	store   domain.Store
}

func newFixture(t *testing.T, membership string, spToken string) *fixture {
	t.Helper()
	return newFixtureWith(t, membership, spToken, scimsp.FiltersAll)
}

// newFixtureWith is newFixture with an SP accepting only some filters.
func newFixtureWith(t *testing.T, membership string, spToken string, filters scimsp.FilterSupport) *fixture {
	t.Helper()
	return newFixtureOf(t, membership, spToken, scimsp.Options{BearerToken: "right-token", Filters: filters})
}

// newFixtureOf is newFixture with an SP of the given options.
func newFixtureOf(t *testing.T, membership string, spToken string, opts scimsp.Options) *fixture {
	t.Helper()
	sp := scimsp.New(opts)
	srv := httptest.NewServer(sp.Handler())
	t.Cleanup(srv.Close)
	t.Setenv("TEST_SP_TOKEN", spToken)
	reg, err := config.Parse([]byte(fmt.Sprintf(`{
	  "applications": [{"manageId": "wiki", "manageType": "SAML20_SP", "provisionings": ["wiki-sp", "down-sp"]},
	    {"manageId": "docs", "manageType": "SAML20_SP", "provisionings": []}],
	  "provisionings": [
	    {"id": "wiki-sp", "baseUrl": %q, "membership": %q, "auth": {"method": "bearer", "token": "env:TEST_SP_TOKEN"}},
	    {"id": "down-sp", "baseUrl": "http://127.0.0.1:1", "auth": {"method": "bearer", "token": "env:TEST_SP_TOKEN"}}
	  ]}`, srv.URL, membership)))
	if err != nil {
		t.Fatal(err)
	}
	store := dynamotest.NewStore(t, nil)
	q := &testkit.RecordingQueue{}
	dlq := &recordingDLQ{reasons: map[string]string{}}
	m := &countingMetrics{counts: map[string]int{}}
	return &fixture{
		metrics: m,
		svc:     &service.Service{Store: store, Queue: q, Registry: reg, PublicBaseURL: "http://invite.test"},
		prov: &provisioner.Provisioner{Store: store, Clients: &provisioner.Targets{Registry: reg, Outbound: loopbackPolicy,
			Secrets: connectionSecrets(secrets.NewResolver(nil, 0), "env:TEST_SP_")},
			DeadLetters: dlq, Metrics: m},
		queue: q, dlq: dlq, sp: sp, spURL: srv.URL, store: store,
	}
}

var superUser = &auth.Principal{Kind: auth.KindAPIToken, SuperUser: true, Name: "test"}

// acceptedGuest creates a role, invites and accepts; it returns the role id.
func (f *fixture) acceptedGuest(t *testing.T, email string) int64 {
	t.Helper()
	// As from a request: the deliveries carry its correlation id.
	ctx := domain.WithCorrelationID(context.Background(), "accept-"+email[:strings.Index(email, "@")])
	role, err := f.svc.CreateRole(ctx, superUser, service.RoleInput{OrganizationGUID: "org-test", Name: "Wiki editors " + email,
		ApplicationUsages: []service.ApplicationUsageInput{{ManageID: "wiki"}}})
	if err != nil {
		t.Fatal(err)
	}
	expiry := time.Now().Add(time.Hour)
	res, err := f.svc.Invite(ctx, superUser, service.InvitationInput{IntendedAuthority: "GUEST", Invites: []string{email},
		RoleIDs: []int64{role.ID}, ExpiryDate: &expiry, SuppressSendingEmails: true})
	if err != nil {
		t.Fatal(err)
	}
	secret := res.URLs[0].InvitationURL[strings.Index(res.URLs[0].InvitationURL, "hash=")+5:]
	person := &auth.Principal{Kind: auth.KindPerson, Person: &auth.Person{Sub: "sub-" + email, EduPersonPrincipalName: email,
		Email: email, GivenName: "Given", FamilyName: "Family"}}
	if _, err := f.svc.Accept(ctx, person, secret, 0); err != nil {
		t.Fatal(err)
	}
	return role.ID
}

// batch renders deliveries of one SP as an SQS event, each received n times before.
func batch(t *testing.T, ds []domain.Delivery, sp string, receiveCount int) events.SQSEvent {
	t.Helper()
	var ev events.SQSEvent
	for _, d := range ds {
		if d.SPID != sp {
			continue
		}
		body, err := sqs.EncodeDelivery(d)
		if err != nil {
			t.Fatal(err)
		}
		ev.Records = append(ev.Records, events.SQSMessage{MessageId: d.ID, Body: body,
			Attributes: map[string]string{"MessageGroupId": d.SPID, "ApproximateReceiveCount": fmt.Sprint(receiveCount)}})
	}
	return ev
}

func TestDeliveriesReachTheSPOnceInEffectWhenRepeated(t *testing.T) {
	for _, membership := range []string{"PATCH", "PUT"} {
		t.Run(membership, func(t *testing.T) {
			f := newFixture(t, membership, "right-token")
			f.acceptedGuest(t, "alice@example.org")
			ds := f.queue.Take()
			kinds := []string{}
			for _, d := range ds {
				if d.SPID == "wiki-sp" {
					kinds = append(kinds, string(d.Kind))
				}
			}
			if strings.Join(kinds, ",") != "group.create,user.create,member.add" {
				t.Fatalf("deliveries for the SP = %v, want group, user, then membership", kinds)
			}
			// Deliver everything twice: a redelivery after success.
			for attempt := 1; attempt <= 2; attempt++ {
				resp, err := f.prov.HandleSQS(context.Background(), batch(t, ds, "wiki-sp", attempt))
				if err != nil || len(resp.BatchItemFailures) != 0 {
					t.Fatalf("attempt %d: failures %v, err %v", attempt, resp.BatchItemFailures, err)
				}
			}
			users, groups := f.sp.Users(), f.sp.Groups()
			if len(users) != 1 || len(groups) != 1 || len(groups[0].Members) != 1 || groups[0].Members[0].Value != users[0].ID {
				t.Fatalf("SP state users=%+v groups=%+v, want one user who is the one member of one group", users, groups)
			}
			if users[0].UserName != "alice@example.org" || users[0].ExternalID != "alice@example.org" {
				t.Fatalf("SP user = %+v", users[0])
			}
			method := "PATCH"
			if membership == "PUT" {
				method = "PUT"
			}
			found := false
			for _, r := range f.sp.Requests() {
				if r.Method == method && strings.Contains(r.Path, "/Groups/") {
					found = true
				}
			}
			if !found {
				t.Fatalf("no %s on the group among %+v", method, f.sp.Requests())
			}
		})
	}
}

func TestLostCreateAnswerIsResolvedByLookup(t *testing.T) {
	for name, filters := range map[string]scimsp.FilterSupport{"all filters": scimsp.FiltersAll,
		"no externalId filter": scimsp.FiltersNoExternalID, "no filters": scimsp.FiltersNone} {
		t.Run(name, func(t *testing.T) { testLostCreateAnswerIsResolvedByLookup(t, filters) })
	}
}

func testLostCreateAnswerIsResolvedByLookup(t *testing.T, filters scimsp.FilterSupport) {
	f := newFixtureWith(t, "PATCH", "right-token", filters)
	roleID := f.acceptedGuest(t, "bob@example.org")
	ds := f.queue.Take()
	if resp, _ := f.prov.HandleSQS(context.Background(), batch(t, ds, "wiki-sp", 1)); len(resp.BatchItemFailures) != 0 {
		t.Fatalf("failures: %v", resp.BatchItemFailures)
	}
	groupLink, err := f.store.GetLink(context.Background(), domain.ResourceGroup, roleID, "wiki-sp")
	if err != nil {
		t.Fatal(err)
	}
	// The SP created the group and user, but the service never stored their
	// ids (the answer was lost, or the worker died before writing).
	for _, kind := range []domain.ResourceKind{domain.ResourceGroup, domain.ResourceUser} {
		links, _ := f.store.ListLinks(context.Background(), kind, map[domain.ResourceKind]int64{domain.ResourceGroup: roleID, domain.ResourceUser: ds[1].UserID}[kind])
		for _, l := range links {
			if err := f.store.DeleteLink(context.Background(), l.Kind, l.LocalID, l.SPID); err != nil {
				t.Fatal(err)
			}
		}
	}
	if resp, _ := f.prov.HandleSQS(context.Background(), batch(t, ds, "wiki-sp", 2)); len(resp.BatchItemFailures) != 0 {
		t.Fatalf("failures on redelivery: %v", resp.BatchItemFailures)
	}
	if n, g := len(f.sp.Users()), len(f.sp.Groups()); n != 1 || g != 1 {
		t.Fatalf("SP has %d users and %d groups after redelivery, want 1 and 1", n, g)
	}
	again, err := f.store.GetLink(context.Background(), domain.ResourceGroup, roleID, "wiki-sp")
	if err != nil || again.RemoteID != groupLink.RemoteID {
		t.Fatalf("group link after lookup = %+v, %v; want remote id %s", again, err, groupLink.RemoteID)
	}
	if len(f.dlq.reasons) != 0 {
		t.Fatalf("dead letters: %v", f.dlq.reasons)
	}
}

// A first attempt only POSTs; a user that is at the SP already (created by
// someone else) answers 409, which a look-up resolves, whatever filters the
// SP refuses.
func TestConflictOnCreateIsResolvedByLookup(t *testing.T) {
	for name, filters := range map[string]scimsp.FilterSupport{"all filters": scimsp.FiltersAll,
		"no externalId filter": scimsp.FiltersNoExternalID, "no filters": scimsp.FiltersNone} {
		t.Run(name, func(t *testing.T) {
			f := newFixtureWith(t, "PATCH", "right-token", filters)
			f.acceptedGuest(t, "carol@example.org")
			ds := f.queue.Take()
			c := scim.NewClient(scim.Target{ID: "direct", BaseURL: f.spURL,
				Credentials: scim.Credentials{Method: scim.AuthBearer, Token: "right-token"}}, nil)
			existing, err := c.CreateUser(context.Background(), scim.User{UserName: "CAROL@example.org"})
			if err != nil {
				t.Fatal(err)
			}
			if resp, _ := f.prov.HandleSQS(context.Background(), batch(t, ds, "wiki-sp", 1)); len(resp.BatchItemFailures) != 0 {
				t.Fatalf("failures: %v, dead letters %v", resp.BatchItemFailures, f.dlq.reasons)
			}
			users, groups := f.sp.Users(), f.sp.Groups()
			if len(users) != 1 || len(groups) != 1 || len(groups[0].Members) != 1 || groups[0].Members[0].Value != existing.ID {
				t.Fatalf("SP users %+v groups %+v, want the existing user adopted as the member", users, groups)
			}
			var gets, conflicts int
			for _, r := range f.sp.Requests() {
				if r.Method == "GET" && strings.HasSuffix(r.Path, "/Users") {
					gets++
				}
				if r.Status == 409 {
					conflicts++
				}
			}
			if conflicts != 1 || gets == 0 {
				t.Fatalf("%d conflicts and %d user look-ups, want 1 and some: %+v", conflicts, gets, f.sp.Requests())
			}
		})
	}
}

func TestPermanentFailureIsDeadLetteredWithReason(t *testing.T) {
	f := newFixture(t, "PATCH", "wrong-token")
	f.acceptedGuest(t, "carol@example.org")
	ds := f.queue.Take()
	resp, err := f.prov.HandleSQS(context.Background(), batch(t, ds, "wiki-sp", 1))
	if err != nil || len(resp.BatchItemFailures) != 0 {
		t.Fatalf("a 401 must not be retried through the queue: failures %v, err %v", resp.BatchItemFailures, err)
	}
	first := ds[0]
	if reason := f.dlq.reasons[first.ID]; !strings.Contains(reason, "401") {
		t.Fatalf("dead-letter reason = %q, want the SP's 401", reason)
	}
	got, err := f.store.GetDelivery(context.Background(), first.ID)
	if err != nil || got.Status != domain.DeliveryFailed || !strings.Contains(got.LastError, "401") {
		t.Fatalf("delivery = %+v, %v; want failed with the reason", got, err)
	}
	if strings.Contains(f.dlq.reasons[first.ID], "wrong-token") {
		t.Fatal("the reason leaks the bearer token")
	}
	// The status of the group at the SP says it failed, and why.
	link, err := f.store.GetLink(context.Background(), domain.ResourceGroup, first.RoleID, "wiki-sp")
	if err != nil || link.Status != domain.StatusFailed || !strings.Contains(link.LastError, "401") {
		t.Fatalf("group link = %+v, %v; want failed with the reason", link, err)
	}
	if got := f.metrics.count("wiki-sp", metrics.DeadLettered); got != 3 {
		t.Fatalf("dead-lettered metric = %d, want 3 (group, user, membership)", got)
	}
}

func TestRetryableFailureHoldsBackTheRestOfItsGroupOnly(t *testing.T) {
	f := newFixture(t, "PATCH", "right-token")
	f.acceptedGuest(t, "dave@example.org")
	ds := f.queue.Take()
	ev := batch(t, ds, "down-sp", 1)
	ok := batch(t, ds, "wiki-sp", 1)
	ev.Records = append(ev.Records, ok.Records...)
	resp, err := f.prov.HandleSQS(context.Background(), ev)
	if err != nil {
		t.Fatal(err)
	}
	failed := map[string]bool{}
	for _, f := range resp.BatchItemFailures {
		failed[f.ItemIdentifier] = true
	}
	for _, d := range ds {
		if (d.SPID == "down-sp") != failed[d.ID] {
			t.Errorf("delivery %s to %s: failed=%v, want only the unreachable SP's deliveries failed", d.Kind, d.SPID, failed[d.ID])
		}
	}
	if len(f.sp.Groups()) != 1 || len(f.sp.Users()) != 1 {
		t.Fatalf("the reachable SP was held up by the unreachable one")
	}
	if len(f.dlq.reasons) != 0 {
		t.Fatalf("a transient failure was dead-lettered: %v", f.dlq.reasons)
	}
	if f.metrics.count("down-sp", metrics.Retried) != 1 || f.metrics.count("wiki-sp", metrics.Delivered) != 3 {
		t.Fatalf("metrics = %v, want 1 retried at down-sp (the rest of its group not attempted) and 3 delivered at wiki-sp", f.metrics.counts)
	}
}

// A whole-group PUT reads the members page by page; every page reaches the SP.
func TestPutGroupReadsMembersAcrossPages(t *testing.T) {
	f := newFixture(t, "PUT", "right-token")
	f.prov.MembersPerPage = 2
	ctx := context.Background()
	role, err := f.svc.CreateRole(ctx, superUser, service.RoleInput{OrganizationGUID: "org-test", Name: "Big group", ApplicationUsages: []service.ApplicationUsageInput{{ManageID: "wiki"}}})
	if err != nil {
		t.Fatal(err)
	}
	expiry := time.Now().Add(time.Hour)
	for i := 0; i < 5; i++ {
		email := fmt.Sprintf("member%d@example.org", i)
		res, err := f.svc.Invite(ctx, superUser, service.InvitationInput{IntendedAuthority: "GUEST", Invites: []string{email},
			RoleIDs: []int64{role.ID}, ExpiryDate: &expiry, SuppressSendingEmails: true})
		if err != nil {
			t.Fatal(err)
		}
		secret := res.URLs[0].InvitationURL[strings.Index(res.URLs[0].InvitationURL, "hash=")+5:]
		person := &auth.Principal{Kind: auth.KindPerson, Person: &auth.Person{Sub: "sub-" + email, EduPersonPrincipalName: email, Email: email}}
		if _, err := f.svc.Accept(ctx, person, secret, 0); err != nil {
			t.Fatal(err)
		}
	}
	if resp, _ := f.prov.HandleSQS(ctx, batch(t, f.queue.Take(), "wiki-sp", 1)); len(resp.BatchItemFailures) != 0 {
		t.Fatalf("failures: %v", resp.BatchItemFailures)
	}
	groups := f.sp.Groups()
	if len(groups) != 1 || len(groups[0].Members) != 5 || len(f.sp.Users()) != 5 {
		t.Fatalf("SP group has %d members and SP %d users, want 5 and 5", len(groups[0].Members), len(f.sp.Users()))
	}
}

// On the queue's last receive a transient failure is dead-lettered here,
// with its reason and a failed status, rather than moved by SQS's redrive
// where nobody would see it; before that it is retried.
func TestTransientFailureOnTheLastReceiveIsDeadLetteredVisibly(t *testing.T) {
	f := newFixture(t, "PATCH", "right-token")
	f.prov.MaxReceives = 5
	f.acceptedGuest(t, "erin@example.org")
	var first domain.Delivery
	for _, d := range f.queue.Take() {
		if d.SPID == "down-sp" {
			first = d // the group's creation, at the unreachable SP
			break
		}
	}
	for _, tc := range []struct {
		receive        int
		wantRetried    bool
		wantDeadLetter bool
	}{{4, true, false}, {5, false, true}} {
		resp, err := f.prov.HandleSQS(context.Background(), batch(t, []domain.Delivery{first}, "down-sp", tc.receive))
		if err != nil {
			t.Fatal(err)
		}
		if retried := len(resp.BatchItemFailures) == 1; retried != tc.wantRetried {
			t.Fatalf("receive %d: failures %v, want retried=%v", tc.receive, resp.BatchItemFailures, tc.wantRetried)
		}
		reason, dead := f.dlq.reasons[first.ID]
		if dead != tc.wantDeadLetter {
			t.Fatalf("receive %d: dead-lettered=%v, want %v", tc.receive, dead, tc.wantDeadLetter)
		}
		if dead && !strings.Contains(reason, "gave up after 5 attempts") {
			t.Fatalf("reason %q", reason)
		}
	}
	got, err := f.store.GetDelivery(context.Background(), first.ID)
	if err != nil || got.Status != domain.DeliveryFailed || got.Attempts != 5 {
		t.Fatalf("delivery = %+v, %v; want failed after 5 attempts", got, err)
	}
	link, err := f.store.GetLink(context.Background(), domain.ResourceGroup, first.RoleID, "down-sp")
	if err != nil || link.Status != domain.StatusFailed {
		t.Fatalf("group link = %+v, %v; want failed", link, err)
	}
}

// A group whose creation reached the SP but whose answer was lost has no
// stored SP id; when its role is deleted before the creation is retried,
// the deletion finds it at the SP by the URN it carries, so no orphan group
// is left behind.
func TestGroupDeletionFindsAGroupWhoseCreationAnswerWasLost(t *testing.T) {
	f := newFixture(t, "PATCH", "right-token")
	ctx := context.Background()
	role, err := f.svc.CreateRole(ctx, superUser, service.RoleInput{OrganizationGUID: "org-test", Name: "Lost answer",
		ApplicationUsages: []service.ApplicationUsageInput{{ManageID: "wiki"}}})
	if err != nil {
		t.Fatal(err)
	}
	f.queue.Take()
	// The creation reached the SP; its answer never came back.
	c, _, err := f.prov.Clients.Client(ctx, "wiki-sp")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.CreateGroup(ctx, scim.Group{Schemas: []string{"urn:ietf:params:scim:schemas:core:2.0:Group"}, ExternalID: role.URN,
		DisplayName: role.Name}); err != nil {
		t.Fatal(err)
	}
	if err := f.svc.DeleteRole(ctx, superUser, role.ID); err != nil {
		t.Fatal(err)
	}
	var deletion []domain.Delivery
	for _, d := range f.queue.Take() {
		if d.Kind == domain.DeliverGroupDelete && d.SPID == "wiki-sp" {
			if d.ExternalID != role.URN {
				t.Fatalf("deletion carries externalId %q, want %q", d.ExternalID, role.URN)
			}
			deletion = append(deletion, d)
		}
	}
	for i := 0; i < 2; i++ { // a repeat changes nothing
		resp, err := f.prov.HandleSQS(ctx, batch(t, deletion, "wiki-sp", i+1))
		if err != nil || len(resp.BatchItemFailures) != 0 {
			t.Fatalf("delivery %d: %v, %v", i, resp.BatchItemFailures, err)
		}
	}
	if groups := f.sp.Groups(); len(groups) != 0 {
		t.Fatalf("groups left at the SP: %+v", groups)
	}
}

// The same for users: a user created at the SP whose answer was lost, and
// who leaves the service before the creation is retried, is found by the
// externalId the deletion carries and deleted; no orphan user is left.
func TestUserDeletionFindsAUserWhoseCreationAnswerWasLost(t *testing.T) {
	f := newFixture(t, "PATCH", "right-token")
	ctx := context.Background()
	f.acceptedGuest(t, "frank@example.org")
	f.queue.Take()
	u, err := f.store.GetUserBySub(ctx, "sub-frank@example.org")
	if err != nil {
		t.Fatal(err)
	}
	c, sp, err := f.prov.Clients.Client(ctx, "wiki-sp")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.CreateUser(ctx, scim.User{Schemas: []string{"urn:ietf:params:scim:schemas:core:2.0:User"},
		ExternalID: u.ExternalIDAt(sp), UserName: u.Identifier(sp.UserIdentifier)}); err != nil {
		t.Fatal(err)
	}
	if err := f.svc.DeleteUser(ctx, superUser, u.ID); err != nil {
		t.Fatal(err)
	}
	var deletion []domain.Delivery
	for _, d := range f.queue.Take() {
		if d.Kind == domain.DeliverUserDelete && d.SPID == "wiki-sp" {
			deletion = append(deletion, d)
		}
	}
	if len(deletion) != 1 || deletion[0].ExternalID != "frank@example.org" {
		t.Fatalf("user deletions %+v, want one carrying the eppn as externalId", deletion)
	}
	resp, err := f.prov.HandleSQS(ctx, batch(t, deletion, "wiki-sp", 1))
	if err != nil || len(resp.BatchItemFailures) != 0 {
		t.Fatalf("%v, %v", resp.BatchItemFailures, err)
	}
	if users := f.sp.Users(); len(users) != 0 {
		t.Fatalf("users left at the SP: %+v", users)
	}
}

// Only guests are group members at the SP (the rule of OpenConext-Invite):
// a manager of the role who is known at the SP as a guest of another role
// is left out of the group that a whole-group PUT sends.
func TestPutGroupLeavesOutMembersWhoAreNotGuests(t *testing.T) {
	f := newFixture(t, "PUT", "right-token")
	ctx := context.Background()
	mk := func(name string) int64 {
		role, err := f.svc.CreateRole(ctx, superUser, service.RoleInput{OrganizationGUID: "org-test", Name: name,
			ApplicationUsages: []service.ApplicationUsageInput{{ManageID: "wiki"}}})
		if err != nil {
			t.Fatal(err)
		}
		return role.ID
	}
	editors, readers := mk("Editors"), mk("Readers")
	expiry := time.Now().Add(time.Hour)
	accept := func(email string, role int64, authority string) {
		res, err := f.svc.Invite(ctx, superUser, service.InvitationInput{IntendedAuthority: authority, Invites: []string{email},
			RoleIDs: []int64{role}, ExpiryDate: &expiry, SuppressSendingEmails: true})
		if err != nil {
			t.Fatal(err)
		}
		secret := res.URLs[0].InvitationURL[strings.Index(res.URLs[0].InvitationURL, "hash=")+5:]
		person := &auth.Principal{Kind: auth.KindPerson, Person: &auth.Person{Sub: "sub-" + email, EduPersonPrincipalName: email, Email: email}}
		if _, err := f.svc.Accept(ctx, person, secret, 0); err != nil {
			t.Fatal(err)
		}
	}
	accept("mia@example.org", readers, "GUEST")   // known at the SP
	accept("mia@example.org", editors, "MANAGER") // not a guest of editors
	accept("gus@example.org", editors, "GUEST")   // the group's PUT lists the members
	if resp, _ := f.prov.HandleSQS(ctx, batch(t, f.queue.Take(), "wiki-sp", 1)); len(resp.BatchItemFailures) != 0 {
		t.Fatalf("failures: %v", resp.BatchItemFailures)
	}
	if n := len(f.sp.Users()); n != 2 {
		t.Fatalf("SP has %d users, want 2 (both guests of some role)", n)
	}
	members := map[string]int{}
	for _, g := range f.sp.Groups() {
		members[g.DisplayName] = len(g.Members)
	}
	if members["Editors"] != 1 || members["Readers"] != 1 {
		t.Fatalf("group members %v, want one guest in each", members)
	}
}

// While a delivery is retried, the status of what it creates says pending,
// with the attempts so far and the last reason; once delivered, provisioned
// with neither.
func TestRetriedCreationShowsPendingWithAttemptsAndReason(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t, "PATCH", "right-token")
	roleID := f.acceptedGuest(t, "fred@example.org")
	ds := f.queue.Take()
	for attempt := 1; attempt <= 2; attempt++ {
		resp, _ := f.prov.HandleSQS(ctx, batch(t, ds, "down-sp", attempt))
		if len(resp.BatchItemFailures) == 0 {
			t.Fatal("deliveries to an SP that refuses connections succeeded")
		}
		l, err := f.store.GetLink(ctx, domain.ResourceGroup, roleID, "down-sp")
		if err != nil || l.Status != domain.StatusPending || l.Attempts != attempt || !strings.Contains(l.LastError, "connection refused") {
			t.Fatalf("attempt %d: group link at down-sp %+v, %v; want pending with %d attempts and the reason", attempt, l, err, attempt)
		}
	}
	statuses, err := f.svc.RoleProvisioning(ctx, superUser, roleID)
	if err != nil {
		t.Fatal(err)
	}
	var down, wiki *service.ProvisioningStatus
	for i := range statuses {
		switch statuses[i].SP {
		case "down-sp":
			down = &statuses[i]
		case "wiki-sp":
			wiki = &statuses[i]
		}
	}
	if down == nil || down.Status != domain.StatusPending || down.Attempts != 2 || down.LastError == "" {
		t.Fatalf("role status at down-sp %+v", down)
	}
	if resp, _ := f.prov.HandleSQS(ctx, batch(t, ds, "wiki-sp", 1)); len(resp.BatchItemFailures) != 0 {
		t.Fatalf("failures: %v", resp.BatchItemFailures)
	}
	statuses, _ = f.svc.RoleProvisioning(ctx, superUser, roleID)
	for i := range statuses {
		if statuses[i].SP == "wiki-sp" {
			wiki = &statuses[i]
		}
	}
	if wiki == nil || wiki.Status != domain.StatusProvisioned || wiki.Attempts != 0 || wiki.LastError != "" || wiki.RemoteID == "" {
		t.Fatalf("role status at wiki-sp %+v", wiki)
	}
}

// At a PUT SP a removal ends with a group PUT of the current members even
// when the user's deletion (in the user's own line) ran first: the group
// must not keep a member the SP no longer has.
func TestRemovalAtAPutSPReplacesTheGroupAfterTheUsersDeletion(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t, "PUT", "right-token")
	f.acceptedGuest(t, "gina@example.org")
	accepted := f.queue.Take()
	if resp, _ := f.prov.HandleSQS(ctx, batch(t, accepted, "wiki-sp", 1)); len(resp.BatchItemFailures) != 0 {
		t.Fatalf("failures: %v", resp.BatchItemFailures)
	}
	var userID int64
	for _, d := range accepted {
		if d.UserID != 0 {
			userID = d.UserID
		}
	}
	urs, err := f.store.ListUserRolesOfUser(ctx, userID)
	if err != nil || len(urs) != 1 {
		t.Fatalf("memberships %v, %v", urs, err)
	}
	if out, err := f.svc.RemoveUserRole(ctx, superUser, urs[0].ID, false); err != nil || !out.UserDeleted {
		t.Fatalf("removal %+v, %v", out, err)
	}
	ds := f.queue.Take()
	var deletion, removal []domain.Delivery
	for _, d := range ds {
		switch d.Kind {
		case domain.DeliverUserDelete:
			deletion = append(deletion, d)
		case domain.DeliverMemberRemove:
			removal = append(removal, d)
		}
	}
	if len(deletion) == 0 || len(removal) == 0 {
		t.Fatalf("deliveries %+v", ds)
	}
	before := len(f.sp.Requests())
	for _, part := range [][]domain.Delivery{deletion, removal} { // the user's line first
		if resp, _ := f.prov.HandleSQS(ctx, batch(t, part, "wiki-sp", 1)); len(resp.BatchItemFailures) != 0 {
			t.Fatalf("failures: %v", resp.BatchItemFailures)
		}
	}
	var got []string
	for _, r := range f.sp.Requests()[before:] {
		got = append(got, r.Method+" "+strings.Join(strings.Split(r.Path, "/")[:3], "/"))
	}
	if strings.Join(got, ", ") != "DELETE /v1/Users, PUT /v1/Groups" {
		t.Fatalf("requests %v, want the user's DELETE, then the group's PUT", got)
	}
	if g := f.sp.Groups(); len(g) != 1 || len(g[0].Members) != 0 {
		t.Fatalf("groups %+v", g)
	}
}

// A group deletion that failed for good shows on the deleted role's status
// (for a super user), with the reason, not only in the dead letters; an SP
// where the deletion succeeded is not listed, and without any such SP the
// deleted role is not found.
func TestFailedGroupDeletionShowsOnTheDeletedRolesStatus(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t, "PATCH", "right-token")
	f.prov.MaxReceives = 1
	role, err := f.svc.CreateRole(ctx, superUser, service.RoleInput{OrganizationGUID: "org-test", Name: "Short-lived",
		ApplicationUsages: []service.ApplicationUsageInput{{ManageID: "wiki"}}})
	if err != nil {
		t.Fatal(err)
	}
	creations := f.queue.Take()
	if resp, _ := f.prov.HandleSQS(ctx, batch(t, creations, "wiki-sp", 1)); len(resp.BatchItemFailures) != 0 {
		t.Fatalf("group creation at wiki-sp: %v", resp.BatchItemFailures)
	}
	if err := f.svc.DeleteRole(ctx, superUser, role.ID); err != nil {
		t.Fatal(err)
	}
	deletions := f.queue.Take()
	for _, sp := range []string{"wiki-sp", "down-sp"} {
		if resp, err := f.prov.HandleSQS(ctx, batch(t, deletions, sp, 1)); err != nil || len(resp.BatchItemFailures) != 0 {
			t.Fatalf("deletion at %s: %v, %v", sp, resp.BatchItemFailures, err)
		}
	}
	if groups := f.sp.Groups(); len(groups) != 0 {
		t.Fatalf("groups left at wiki-sp: %+v", groups)
	}
	statuses, err := f.svc.RoleProvisioning(ctx, superUser, role.ID)
	if err != nil {
		t.Fatalf("status of the deleted role: %v", err)
	}
	if len(statuses) != 1 || statuses[0].SP != "down-sp" || statuses[0].Status != domain.StatusFailed ||
		!strings.Contains(statuses[0].LastError, "connection refused") {
		t.Fatalf("deleted role's status = %+v, want down-sp failed with the reason only", statuses)
	}
	manager := &auth.Principal{Kind: auth.KindAPIToken, Name: "org admin", OrganizationGUID: "org-test"}
	if _, err := f.svc.RoleProvisioning(ctx, manager, role.ID); !domain.IsNotFound(err) {
		t.Fatalf("a non-super user reading a deleted role's status: %v, want not found", err)
	}

	// Once the deletion succeeds (the SP is back), the deleted role is gone.
	link, err := f.store.GetLink(ctx, domain.ResourceGroup, role.ID, "down-sp")
	if err != nil {
		t.Fatal(err)
	}
	link.Status = domain.StatusDeprovisioned
	if err := f.store.PutLink(ctx, link); err != nil {
		t.Fatal(err)
	}
	if _, err := f.svc.RoleProvisioning(ctx, superUser, role.ID); !domain.IsNotFound(err) {
		t.Fatalf("a cleanly deleted role's status: %v, want not found", err)
	}
}
