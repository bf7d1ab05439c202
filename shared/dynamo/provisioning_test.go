package dynamo_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/edu-invite/invite/shared/domain"
)

func TestDeliveryStatusTransitions(t *testing.T) {
	s := newStore(t)
	must(t, s.CreateRole(ctx(t), role(1, "One"), []domain.Delivery{delivery("d1", domain.DeliverGroupCreate, testNow.Add(-time.Hour))}))

	steps := []struct {
		status  domain.DeliveryStatus
		pending bool
	}{
		{domain.DeliverySent, false},
		{domain.DeliveryFailed, false},
		{domain.DeliveryPending, true}, // a replay puts it back in the outbox
		{domain.DeliveryDelivered, false},
	}
	for i, step := range steps {
		err := s.UpdateDeliveryStatus(ctx(t), domain.Delivery{ID: "d1", Status: step.status, Attempts: i + 1, LastError: string(step.status)})
		must(t, err)
		d, err := s.GetDelivery(ctx(t), "d1")
		must(t, err)
		if d.Status != step.status || d.Attempts != i+1 || d.SPID != "sp-1" || d.Kind != domain.DeliverGroupCreate || !d.UpdatedAt.Equal(testNow) {
			t.Errorf("step %d: delivery %+v", i, d)
		}
		unsent, err := s.ListUnsentDeliveries(ctx(t), testNow, 10)
		must(t, err)
		if got := len(unsent) == 1; got != step.pending {
			t.Errorf("step %d (%s): listed as unsent = %v", i, step.status, got)
		}
	}
	mustNotFound(t, s.UpdateDeliveryStatus(ctx(t), domain.Delivery{ID: "nope", Status: domain.DeliverySent}))
}

func TestListUnsentDeliveriesOrderAndCutOff(t *testing.T) {
	s := newStore(t)
	base := time.Date(2025, 1, 1, 12, 0, 0, 0, time.UTC)
	// Whole seconds and fractions are mixed on purpose: in plain RFC3339Nano
	// "12:00:01Z" sorts after "12:00:01.5Z".
	deliveries := []domain.Delivery{
		delivery("e", domain.DeliverMemberAdd, base.Add(2*time.Second)),
		delivery("b", domain.DeliverMemberAdd, base.Add(1*time.Second)),
		delivery("c", domain.DeliverMemberAdd, base.Add(1500*time.Millisecond)),
		delivery("a", domain.DeliverMemberAdd, base),
		delivery("late", domain.DeliverMemberAdd, base.Add(time.Minute)),
		delivery("sent", domain.DeliverMemberAdd, base),
	}
	must(t, s.CreateRole(ctx(t), role(1, "One"), deliveries))
	must(t, s.UpdateDeliveryStatus(ctx(t), domain.Delivery{ID: "sent", Status: domain.DeliverySent}))

	tests := []struct {
		before time.Time
		limit  int
		want   string
	}{
		{base.Add(time.Minute), 10, "a b c e "},
		{base.Add(time.Minute), 2, "a b "},
		{base.Add(2 * time.Second), 10, "a b c "}, // strictly before
		{base, 10, ""},
		{base.Add(time.Hour), 0, "a b c e late "},
	}
	for _, tt := range tests {
		unsent, err := s.ListUnsentDeliveries(ctx(t), tt.before, tt.limit)
		must(t, err)
		var got string
		for _, d := range unsent {
			got += d.ID + " "
		}
		if got != tt.want {
			t.Errorf("before %s limit %d: %q, want %q", tt.before.Format(time.StampMilli), tt.limit, got, tt.want)
		}
	}
}

func TestSPLinks(t *testing.T) {
	s := newStore(t)
	provisioned := testNow
	links := []domain.SPLink{
		{Kind: domain.ResourceUser, LocalID: 1, SPID: "sp-b", RemoteID: "u-b", Status: domain.StatusProvisioned, ProvisionedAt: &provisioned, UpdatedAt: testNow},
		{Kind: domain.ResourceUser, LocalID: 1, SPID: "sp-a", Status: domain.StatusPending, Attempts: 2, LastError: "timeout"},
		{Kind: domain.ResourceGroup, LocalID: 1, SPID: "sp-a", RemoteID: "g-a", Status: domain.StatusProvisioned},
	}
	for _, l := range links {
		must(t, s.PutLink(ctx(t), l))
	}

	got, err := s.GetLink(ctx(t), domain.ResourceUser, 1, "sp-b")
	must(t, err)
	if got.RemoteID != "u-b" || got.ProvisionedAt == nil || !got.ProvisionedAt.Equal(testNow) || got.Status != domain.StatusProvisioned {
		t.Errorf("link %+v", got)
	}
	mustNotFound(t, func() error { _, err := s.GetLink(ctx(t), domain.ResourceGroup, 1, "sp-b"); return err }())

	listed, err := s.ListLinks(ctx(t), domain.ResourceUser, 1)
	must(t, err)
	if len(listed) != 2 || listed[0].SPID != "sp-a" || listed[0].LastError != "timeout" || listed[1].SPID != "sp-b" {
		t.Errorf("user links %+v", listed)
	}

	updated := links[1]
	updated.RemoteID, updated.Status, updated.Attempts, updated.LastError = "u-a", domain.StatusProvisioned, 3, ""
	must(t, s.PutLink(ctx(t), updated))
	if got, _ := s.GetLink(ctx(t), domain.ResourceUser, 1, "sp-a"); got.RemoteID != "u-a" || got.LastError != "" {
		t.Errorf("updated link %+v", got)
	}

	must(t, s.DeleteLink(ctx(t), domain.ResourceUser, 1, "sp-b"))
	must(t, s.DeleteLink(ctx(t), domain.ResourceUser, 1, "sp-b")) // idempotent
	listed, err = s.ListLinks(ctx(t), domain.ResourceUser, 1)
	must(t, err)
	if len(listed) != 1 {
		t.Errorf("after delete: %+v", listed)
	}
	if groups, _ := s.ListLinks(ctx(t), domain.ResourceGroup, 1); len(groups) != 1 {
		t.Errorf("group links %+v", groups)
	}
	mustKind(t, s.PutLink(ctx(t), domain.SPLink{Kind: "ROLE", LocalID: 1, SPID: "sp-a"}), domain.KindInvalid)
}

// The writer marks a delivery sent after SQS took it; the provisioner may
// have delivered it already, and that final status must stay.
func TestLateSentMarkDoesNotOverwriteFinalStatus(t *testing.T) {
	for _, final := range []domain.DeliveryStatus{domain.DeliveryDelivered, domain.DeliveryFailed} {
		t.Run(string(final), func(t *testing.T) {
			s := newStore(t)
			must(t, s.CreateRole(ctx(t), role(1, "One"), []domain.Delivery{delivery("d1", domain.DeliverGroupCreate, testNow.Add(-time.Hour))}))
			must(t, s.UpdateDeliveryStatus(ctx(t), domain.Delivery{ID: "d1", Status: final, Attempts: 1}))
			must(t, s.UpdateDeliveryStatus(ctx(t), domain.Delivery{ID: "d1", Status: domain.DeliverySent}))
			d, err := s.GetDelivery(ctx(t), "d1")
			must(t, err)
			if d.Status != final {
				t.Fatalf("status = %s after a late sent mark, want %s", d.Status, final)
			}
		})
	}
}

func TestFinishDeliveryWritesOnceWithoutAReadUnlessAReplayIsNewer(t *testing.T) {
	s := newStore(t)
	d := delivery("d1", domain.DeliverGroupCreate, testNow.Add(-time.Hour))
	must(t, s.CreateRole(ctx(t), role(1, "One"), []domain.Delivery{d}))

	done := d
	done.Status, done.Attempts, done.OrderKey = domain.DeliveryDelivered, 2, "sp-1/group/1"
	ok, err := s.FinishDelivery(ctx(t), done)
	must(t, err)
	got, err := s.GetDelivery(ctx(t), "d1")
	must(t, err)
	if !ok || got.Status != domain.DeliveryDelivered || got.Attempts != 2 || got.SPID != "sp-1" || got.Kind != domain.DeliverGroupCreate {
		t.Fatalf("finished: %v, stored %+v", ok, got)
	}
	// An operator replayed it meanwhile (replays 1): an old copy's outcome
	// must not overwrite the replay's record.
	must(t, s.UpdateDeliveryStatus(ctx(t), domain.Delivery{ID: "d1", Status: domain.DeliveryPending, Replays: 1}))
	ok, err = s.FinishDelivery(ctx(t), done)
	must(t, err)
	if got, _ := s.GetDelivery(ctx(t), "d1"); ok || got.Status != domain.DeliveryPending || got.Replays != 1 {
		t.Fatalf("an older copy finished a replayed delivery: %v, %+v", ok, got)
	}
	missing := done
	missing.ID = "gone"
	if ok, err := s.FinishDelivery(ctx(t), missing); ok || err != nil {
		t.Fatalf("a missing delivery: %v, %v", ok, err)
	}
	if _, err := s.FinishDelivery(ctx(t), domain.Delivery{ID: "d1", Status: domain.DeliverySent}); err == nil {
		t.Fatal("FinishDelivery took a non-final status")
	}
}

func TestLinksOfAnSPListedAndReadInBatches(t *testing.T) {
	s := newStore(t)
	for id := int64(1); id <= 130; id++ { // more than one BatchGetItem
		must(t, s.PutLink(ctx(t), domain.SPLink{Kind: domain.ResourceUser, LocalID: id, SPID: "sp-a",
			RemoteID: fmt.Sprintf("u-%d", id), Status: domain.StatusProvisioned, UpdatedAt: testNow}))
	}
	must(t, s.PutLink(ctx(t), domain.SPLink{Kind: domain.ResourceUser, LocalID: 1, SPID: "sp-b", RemoteID: "other", Status: domain.StatusProvisioned}))
	must(t, s.PutLink(ctx(t), domain.SPLink{Kind: domain.ResourceGroup, LocalID: 7, SPID: "sp-a", RemoteID: "g-7", Status: domain.StatusProvisioned}))

	ids := []int64{999}
	for id := int64(130); id >= 1; id-- {
		ids = append(ids, id)
	}
	got, err := s.GetLinksAt(ctx(t), domain.ResourceUser, ids, "sp-a")
	must(t, err)
	if len(got) != 130 || got[1].RemoteID != "u-1" || got[130].RemoteID != "u-130" {
		t.Fatalf("%d links, 1: %+v, 130: %+v", len(got), got[1], got[130])
	}
	if _, ok := got[999]; ok {
		t.Fatal("a user without a link was read")
	}
	users, err := s.ListLinksOfSP(ctx(t), "sp-a", domain.ResourceUser)
	must(t, err)
	groups, err := s.ListLinksOfSP(ctx(t), "sp-a", domain.ResourceGroup)
	must(t, err)
	if len(users) != 130 || len(groups) != 1 || groups[0].RemoteID != "g-7" {
		t.Fatalf("links of sp-a: %d users, groups %+v", len(users), groups)
	}
}
