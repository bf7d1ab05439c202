package provisioner_test

import (
	"context"
	"errors"
	"log/slog"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-lambda-go/events"

	"github.com/edu-invite/invite/shared/domain"
	"github.com/edu-invite/invite/shared/scim"
	"github.com/edu-invite/invite/shared/sqs"
)

// countingStore counts the provisioner's reads and outcome writes.
type countingStore struct {
	domain.Store
	mu       sync.Mutex
	calls    map[string]int
	audits   []domain.AuditEntry
	finished []domain.Delivery
	links    []domain.SPLink
	// failOutcomes and failLinks, when set, fail those writes.
	failOutcomes, failLinks error
}

func (s *countingStore) count(op string) {
	s.mu.Lock()
	s.calls[op]++
	s.mu.Unlock()
}

func (s *countingStore) GetUser(ctx context.Context, id int64) (domain.User, error) {
	s.count("GetUser")
	return s.Store.GetUser(ctx, id)
}

func (s *countingStore) GetRole(ctx context.Context, id int64) (domain.Role, error) {
	s.count("GetRole")
	return s.Store.GetRole(ctx, id)
}

func (s *countingStore) GetUserRole(ctx context.Context, userID, roleID int64) (domain.UserRole, error) {
	s.count("GetUserRole")
	return s.Store.GetUserRole(ctx, userID, roleID)
}

func (s *countingStore) GetLink(ctx context.Context, kind domain.ResourceKind, localID int64, spID string) (domain.SPLink, error) {
	s.count("GetLink")
	return s.Store.GetLink(ctx, kind, localID, spID)
}

func (s *countingStore) GetDeliverySubjects(ctx context.Context, q domain.SubjectsQuery) (domain.DeliverySubjects, error) {
	s.count("GetDeliverySubjects")
	return s.Store.GetDeliverySubjects(ctx, q)
}

func (s *countingStore) RecordOutcomes(ctx context.Context, o domain.Outcomes) error {
	s.count("RecordOutcomes")
	s.mu.Lock()
	s.audits = append(s.audits, o.Audit...)
	s.finished = append(s.finished, o.Delivered...)
	s.links = append(s.links, o.Links...)
	s.mu.Unlock()
	if s.failOutcomes != nil {
		return s.failOutcomes
	}
	return s.Store.RecordOutcomes(ctx, o)
}

func (s *countingStore) PutLink(ctx context.Context, l domain.SPLink) error {
	s.count("PutLink")
	if s.failLinks != nil {
		return s.failLinks
	}
	return s.Store.PutLink(ctx, l)
}

func (s *countingStore) FinishDelivery(ctx context.Context, d domain.Delivery) (bool, error) {
	s.count("FinishDelivery")
	return s.Store.FinishDelivery(ctx, d)
}

func (s *countingStore) UpdateDeliveryStatus(ctx context.Context, d domain.Delivery) error {
	s.count("UpdateDeliveryStatus")
	return s.Store.UpdateDeliveryStatus(ctx, d)
}

// TestBatchReadsWhatItIsAboutOnceAndRecordsOutcomesAtOnce: a batch of three
// acceptances (each with its group's creation) reads its users, roles,
// memberships and links in one request. Its deliveries are all in one line
// that is no resource's own, so only the creations read their link (an
// absent link is served from the batch to the resource's own line only,
// see TestOwnLineCreatesFromTheBatchRead), and the memberships use the
// links the batch's creations wrote. Those links were stored at once (not
// in the users' own lines), where other lines could see them, so each
// membership also reads its group's link after its PATCH (groups_added.go):
// 3 + 3 + 3 GetLink. Its
// outcomes, the nine delivered statuses and audit entries (each with the
// person's e-mail and the role's name), are written in one request.
func TestBatchReadsWhatItIsAboutOnceAndRecordsOutcomesAtOnce(t *testing.T) {
	f := newFixture(t, "PATCH", "right-token")
	ctx := context.Background()
	emails := []string{"ann@example.org", "ben@example.org", "cas@example.org"}
	roles := map[string]int64{}
	for _, e := range emails {
		roles[e] = f.acceptedGuest(t, e)
	}
	ev := batch(t, f.queue.Take(), "wiki-sp", 1)
	if len(ev.Records) != 9 {
		t.Fatalf("%d deliveries to wiki-sp, want 9 (3 × group, user, membership)", len(ev.Records))
	}
	counting := &countingStore{Store: f.store, calls: map[string]int{}}
	f.prov.Store = counting
	resp, err := f.prov.HandleSQS(ctx, ev)
	if err != nil || len(resp.BatchItemFailures) != 0 {
		t.Fatalf("batch: failures %v, err %v", resp.BatchItemFailures, err)
	}
	want := map[string]int{"GetDeliverySubjects": 1, "GetLink": 9, "RecordOutcomes": 1, "FinishDelivery": 0, "UpdateDeliveryStatus": 0}
	for op, n := range want {
		if counting.calls[op] != n {
			t.Errorf("%s called %d times, want %d (all calls: %v)", op, counting.calls[op], n, counting.calls)
		}
	}
	for _, op := range []string{"GetUser", "GetRole", "GetUserRole"} {
		if counting.calls[op] != 0 {
			t.Errorf("%s called %d times, want 0: the batch read them (all calls: %v)", op, counting.calls[op], counting.calls)
		}
	}
	groups := f.sp.Groups()
	if len(groups) != 3 || len(f.sp.Users()) != 3 {
		t.Fatalf("SP holds %d groups and %d users, want 3 and 3", len(groups), len(f.sp.Users()))
	}
	for _, g := range groups {
		if len(g.Members) != 1 {
			t.Errorf("group %s has members %+v, want its one guest", g.DisplayName, g.Members)
		}
	}
	if len(counting.audits) != 9 || len(counting.finished) != 9 {
		t.Fatalf("%d audit entries and %d statuses, want 9 and 9", len(counting.audits), len(counting.finished))
	}
	for _, m := range ev.Records {
		d, err := f.store.GetDelivery(ctx, m.MessageId)
		if err != nil || d.Status != domain.DeliveryDelivered || d.UserEmail == "" && d.UserID != 0 {
			t.Errorf("delivery %s after the batch: %+v, %v; want delivered with its labels", d.ID, d, err)
		}
	}
	entries, err := f.store.ListRecentAuditEntries(ctx, 0, time.Time{}, 100)
	if err != nil {
		t.Fatal(err)
	}
	stored := map[string]domain.AuditEntry{}
	for _, e := range entries {
		if e.DeliveryID != "" {
			stored[e.DeliveryID] = e
		}
	}
	for _, a := range counting.audits {
		e, ok := stored[a.DeliveryID]
		switch {
		case !ok:
			t.Errorf("audit of delivery %s (%s) not stored", a.DeliveryID, a.DeliveryKind)
		case e.Action != domain.AuditProvisioned:
			t.Errorf("audit of %s: %s, want %s", a.DeliveryKind, e.Action, domain.AuditProvisioned)
		case a.DeliveryKind == domain.DeliverMemberAdd && (e.UserEmail == "" || e.RoleName == "" || roles[e.UserEmail] != e.RoleID):
			t.Errorf("membership audit without its labels: %+v", e)
		case a.DeliveryKind == domain.DeliverUserCreate && e.UserEmail == "":
			t.Errorf("user audit without the e-mail: %+v", e)
		}
	}
}

// inLines renders the deliveries to one SP as an SQS event with each in its
// own line (message group), as the queue carries them, first attempts all.
func inLines(t *testing.T, ds []domain.Delivery, sp string, kinds ...domain.DeliveryKind) events.SQSEvent {
	t.Helper()
	var ev events.SQSEvent
	for _, d := range ds {
		if d.SPID != sp || !slices.Contains(kinds, d.Kind) {
			continue
		}
		body, err := sqs.EncodeDelivery(d)
		if err != nil {
			t.Fatal(err)
		}
		ev.Records = append(ev.Records, events.SQSMessage{MessageId: d.ID, Body: body,
			Attributes: map[string]string{"MessageGroupId": d.MessageGroup(), "ApproximateReceiveCount": "1"}})
	}
	return ev
}

// TestOwnLineCreatesFromTheBatchRead: in their own lines, the creation of
// a user and its membership read nothing beyond the batch's one request
// (the line's own link, absent, came with it) and write nothing before the
// batch's outcomes (the new links go with them), and each user is created
// once. A line's own link that says an earlier attempt may have reached
// the SP (pending) makes that line look the user up first, from the batch
// read as from the store: no duplicate.
func TestOwnLineCreatesFromTheBatchRead(t *testing.T) {
	f := newFixture(t, "PATCH", "right-token")
	ctx := context.Background()
	emails := []string{"ann@example.org", "ben@example.org", "cas@example.org"}
	for _, e := range emails {
		f.acceptedGuest(t, e)
	}
	ds := f.queue.Take()
	if resp, err := f.prov.HandleSQS(ctx, inLines(t, ds, "wiki-sp", domain.DeliverGroupCreate)); err != nil || len(resp.BatchItemFailures) != 0 {
		t.Fatalf("groups: %v, %v", resp.BatchItemFailures, err)
	}
	// Ann's creation reached the SP before, but its answer was lost: her
	// link says pending.
	var ann domain.Delivery
	for _, d := range ds {
		if d.SPID == "wiki-sp" && d.Kind == domain.DeliverUserCreate && ann.ID == "" {
			ann = d
		}
	}
	u, err := f.store.GetUser(ctx, ann.UserID)
	if err != nil {
		t.Fatal(err)
	}
	c := scim.NewClient(scim.Target{BaseURL: f.spURL, Credentials: scim.Credentials{Method: scim.AuthBearer, Token: "right-token"}}, nil)
	if _, err := c.CreateUser(ctx, scim.User{Schemas: []string{scim.SchemaUser}, UserName: u.EduPersonPrincipalName, ExternalID: u.EduPersonPrincipalName}); err != nil {
		t.Fatal(err)
	}
	if err := f.store.PutLink(ctx, domain.SPLink{Kind: domain.ResourceUser, LocalID: ann.UserID, SPID: "wiki-sp",
		Status: domain.StatusPending, Attempts: 1, LastError: "answer lost"}); err != nil {
		t.Fatal(err)
	}

	counting := &countingStore{Store: f.store, calls: map[string]int{}}
	f.prov.Store = counting
	resp, err := f.prov.HandleSQS(ctx, inLines(t, ds, "wiki-sp", domain.DeliverUserCreate, domain.DeliverMemberAdd))
	if err != nil || len(resp.BatchItemFailures) != 0 {
		t.Fatalf("users: failures %v, err %v", resp.BatchItemFailures, err)
	}
	if counting.calls["GetLink"] != 0 || counting.calls["GetDeliverySubjects"] != 1 {
		t.Errorf("reads beyond the batch's one: %v", counting.calls)
	}
	if counting.calls["PutLink"] != 0 || counting.calls["RecordOutcomes"] != 1 || len(counting.links) != 3 {
		t.Errorf("the three creations' links not stored with the outcomes in one write: %d links, calls %v", len(counting.links), counting.calls)
	}
	users := f.sp.Users()
	if len(users) != 3 {
		t.Fatalf("SP holds %d users, want 3 (none twice): %+v", len(users), users)
	}
	for _, r := range f.sp.Requests() {
		if r.Status == 409 {
			t.Errorf("%s %s answered 409: Ann was created again instead of looked up first", r.Method, r.Path)
		}
	}
	for _, g := range f.sp.Groups() {
		if len(g.Members) != 1 {
			t.Errorf("group %s has members %+v, want its one guest", g.DisplayName, g.Members)
		}
	}
	l, err := f.store.GetLink(ctx, domain.ResourceUser, ann.UserID, "wiki-sp")
	if err != nil || l.Status != domain.StatusProvisioned || l.RemoteID == "" {
		t.Errorf("Ann's link after the batch: %+v, %v", l, err)
	}
}

// TestUnrecordedCreationsAreReceivedAgain: when the batch's outcomes
// cannot be written, nor the new links one by one, every message of the
// lines that created something is reported failed, so that those lines
// are received again; the retry looks the users up instead of creating
// them twice, and stores their links.
func TestUnrecordedCreationsAreReceivedAgain(t *testing.T) {
	f := newFixture(t, "PATCH", "right-token")
	ctx := context.Background()
	for _, e := range []string{"ann@example.org", "ben@example.org"} {
		f.acceptedGuest(t, e)
	}
	ds := f.queue.Take()
	if resp, err := f.prov.HandleSQS(ctx, inLines(t, ds, "wiki-sp", domain.DeliverGroupCreate)); err != nil || len(resp.BatchItemFailures) != 0 {
		t.Fatalf("groups: %v, %v", resp.BatchItemFailures, err)
	}
	ev := inLines(t, ds, "wiki-sp", domain.DeliverUserCreate, domain.DeliverMemberAdd)
	counting := &countingStore{Store: f.store, calls: map[string]int{}, failOutcomes: errors.New("throttled"), failLinks: errors.New("throttled")}
	f.prov.Store = counting
	resp, err := f.prov.HandleSQS(ctx, ev)
	if err != nil {
		t.Fatal(err)
	}
	failed := map[string]bool{}
	for _, fl := range resp.BatchItemFailures {
		if failed[fl.ItemIdentifier] {
			t.Errorf("message %s reported failed twice", fl.ItemIdentifier)
		}
		failed[fl.ItemIdentifier] = true
	}
	if len(failed) != len(ev.Records) {
		t.Fatalf("%d of %d messages reported failed, want all (each line created a user)", len(failed), len(ev.Records))
	}

	f.prov.Store = f.store
	for i := range ev.Records {
		ev.Records[i].Attributes["ApproximateReceiveCount"] = "2"
	}
	if resp, err := f.prov.HandleSQS(ctx, ev); err != nil || len(resp.BatchItemFailures) != 0 {
		t.Fatalf("retry: %v, %v", resp.BatchItemFailures, err)
	}
	if users := f.sp.Users(); len(users) != 2 {
		t.Fatalf("SP holds %d users after the retry, want 2", len(users))
	}
	for _, r := range f.sp.Requests() {
		if r.Status == 409 {
			t.Errorf("%s %s answered 409: a user was created again instead of looked up", r.Method, r.Path)
		}
	}
	for _, m := range ev.Records {
		d, err := sqs.DecodeDelivery(m.Body)
		if err != nil {
			t.Fatal(err)
		}
		if l, err := f.store.GetLink(ctx, domain.ResourceUser, d.UserID, "wiki-sp"); err != nil || l.RemoteID == "" {
			t.Errorf("user %d's link after the retry: %+v, %v", d.UserID, l, err)
		}
	}
}

// correlatedLines records, per log line that names a delivery, the
// correlation id its context carried (what the service's log handler
// writes as correlationId).
type correlatedLines struct {
	mu    sync.Mutex
	lines map[string]string // message → correlation id
}

func (h *correlatedLines) Enabled(context.Context, slog.Level) bool { return true }
func (h *correlatedLines) WithAttrs([]slog.Attr) slog.Handler       { return h }
func (h *correlatedLines) WithGroup(string) slog.Handler            { return h }
func (h *correlatedLines) Handle(ctx context.Context, r slog.Record) error {
	r.Attrs(func(a slog.Attr) bool {
		if a.Key == "delivery" {
			h.mu.Lock()
			h.lines[r.Message] = domain.CorrelationID(ctx)
			h.mu.Unlock()
		}
		return true
	})
	return nil
}

// TestOutcomeLinesCarryTheirDeliverysCorrelationID: when a batch's
// outcomes cannot be written at once, the warning and the lines of the
// one-by-one writes name a delivery, and carry that delivery's
// correlation id, so they are found with the request that caused them.
func TestOutcomeLinesCarryTheirDeliverysCorrelationID(t *testing.T) {
	f := newFixture(t, "PATCH", "right-token")
	ctx := context.Background()
	f.acceptedGuest(t, "ann@example.org")
	ev := batch(t, f.queue.Take(), "wiki-sp", 1)
	logs := &correlatedLines{lines: map[string]string{}}
	f.prov.Logger = slog.New(logs)
	f.prov.Store = &failingStatusStore{countingStore: countingStore{Store: f.store, calls: map[string]int{}, failOutcomes: errors.New("throttled")}}
	if _, err := f.prov.HandleSQS(ctx, ev); err != nil {
		t.Fatal(err)
	}
	for _, msg := range []string{"provisioning outcomes not recorded at once; links and statuses one by one, audit lost", "delivered but status not recorded"} {
		id, ok := logs.lines[msg]
		if !ok {
			t.Errorf("no line %q (lines: %v)", msg, logs.lines)
		} else if id != "accept-ann" {
			t.Errorf("line %q carries correlation id %q, want the acceptance's accept-ann", msg, id)
		}
	}
}

// failingStatusStore also fails a delivery's status written on its own.
type failingStatusStore struct{ countingStore }

func (s *failingStatusStore) FinishDelivery(context.Context, domain.Delivery) (bool, error) {
	return false, errors.New("throttled")
}

func (s *failingStatusStore) UpdateDeliveryStatus(context.Context, domain.Delivery) error {
	return errors.New("throttled")
}
