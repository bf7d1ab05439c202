package dynamo_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/edu-invite/invite/shared/domain"
)

// TestRecordOutcomesWritesABatchInOneRequestPer25: five links, thirty
// delivered statuses and thirty audit entries are three BatchWriteItems and
// one reservation of audit ids; every link, status and entry is stored, the
// entries with distinct ids.
func TestRecordOutcomesWritesABatchInOneRequestPer25(t *testing.T) {
	s, requests := countingStore(t)
	var pending []domain.Delivery
	for i := range 30 {
		pending = append(pending, delivery(fmt.Sprint("d", i), domain.DeliverMemberAdd, testNow.Add(-time.Hour)))
	}
	must(t, s.CreateRole(ctx(t), role(1, "One"), pending))

	var finished []domain.Delivery
	var audits []domain.AuditEntry
	for _, d := range pending {
		d.Status, d.Attempts, d.UpdatedAt, d.UserEmail = domain.DeliveryDelivered, 1, testNow, "ann@example.org"
		finished = append(finished, d)
		audits = append(audits, domain.AuditEntry{RoleID: 1, CreatedAt: testNow, CreatedBy: "provisioner",
			Action: domain.AuditProvisioned, SP: "sp-1", DeliveryID: d.ID, DeliveryKind: d.Kind})
	}
	var links []domain.SPLink
	for id := int64(1); id <= 5; id++ {
		links = append(links, domain.SPLink{Kind: domain.ResourceUser, LocalID: id, SPID: "sp-1", RemoteID: fmt.Sprint("u-", id),
			Status: domain.StatusProvisioned, UpdatedAt: testNow})
	}
	before := requests.Load()
	must(t, s.RecordOutcomes(ctx(t), domain.Outcomes{Links: links, Delivered: finished, Audit: audits}))
	if got := requests.Load() - before; got != 4 {
		t.Errorf("%d requests for 65 outcomes, want 4 (3 batch writes, 1 id reservation)", got)
	}
	stored, err := s.GetLinksAt(ctx(t), domain.ResourceUser, []int64{1, 2, 3, 4, 5}, "sp-1")
	must(t, err)
	if len(stored) != 5 || stored[3].RemoteID != "u-3" || stored[3].Status != domain.StatusProvisioned {
		t.Errorf("links stored: %+v", stored)
	}
	for _, d := range finished {
		got, err := s.GetDelivery(ctx(t), d.ID)
		must(t, err)
		if got.Status != domain.DeliveryDelivered || got.UserEmail != "ann@example.org" || got.Kind != domain.DeliverMemberAdd {
			t.Fatalf("delivery %s stored as %+v", d.ID, got)
		}
	}
	entries, err := s.ListAuditEntriesOfRole(ctx(t), 1)
	must(t, err)
	ids := map[int64]bool{}
	for _, e := range entries {
		if e.DeliveryID != "" {
			ids[e.ID] = e.ID != 0
		}
	}
	if len(ids) != 30 || ids[0] {
		t.Errorf("%d distinct audit ids for 30 entries (or a zero id): %v", len(ids), ids)
	}
}

// TestRecordOutcomesReservesAuditIDsInBlocks: later batches take their
// ids from the block the first reserved, so the sequence item is updated
// once for them all, and the ids still never repeat.
func TestRecordOutcomesReservesAuditIDsInBlocks(t *testing.T) {
	s, requests := countingStore(t)
	must(t, s.CreateRole(ctx(t), role(1, "One"), nil))
	seen := map[int64]bool{}
	for batch := range 5 {
		audits := make([]domain.AuditEntry, 3)
		for i := range audits {
			audits[i] = domain.AuditEntry{RoleID: 1, CreatedAt: testNow.Add(time.Duration(batch) * time.Second), Action: domain.AuditProvisioned,
				SP: "sp-1", DeliveryID: fmt.Sprintf("d%d-%d", batch, i), DeliveryKind: domain.DeliverMemberAdd}
		}
		before := requests.Load()
		must(t, s.RecordOutcomes(ctx(t), domain.Outcomes{Audit: audits}))
		want := int64(1)
		if batch == 0 {
			want = 2 // the first also reserves the block
		}
		if got := requests.Load() - before; got != want {
			t.Errorf("batch %d: %d requests, want %d", batch, got, want)
		}
		for _, e := range audits {
			if e.ID == 0 || seen[e.ID] {
				t.Fatalf("batch %d: audit id %d is zero or taken before", batch, e.ID)
			}
			seen[e.ID] = true
		}
	}
	// Another writer (the API numbers its entries from the same sequence)
	// gets ids after the whole block.
	next, err := s.NextIDs(ctx(t), "audit", 1)
	must(t, err)
	for id := range seen {
		if id >= next {
			t.Fatalf("audit id %d handed out by the block, and %d to another writer after it", id, next)
		}
	}
}

// TestRecordOutcomesRefusesWhatNeedsACondition: a replayed delivery (whose
// record a newer replay may hold), a status that is not final, an audit
// entry without its delivery and a link of no known kind are refused, and
// nothing is written.
func TestRecordOutcomesRefusesWhatNeedsACondition(t *testing.T) {
	s := newStore(t)
	d := delivery("d1", domain.DeliverGroupCreate, testNow.Add(-time.Hour))
	must(t, s.CreateRole(ctx(t), role(1, "One"), []domain.Delivery{d}))
	delivered := d
	delivered.Status = domain.DeliveryDelivered
	replayed := delivered
	replayed.Replays = 1
	sent := d
	sent.Status = domain.DeliverySent
	entry := domain.AuditEntry{RoleID: 1, CreatedAt: testNow, Action: domain.AuditProvisioned, SP: "sp-1", DeliveryID: "d1"}
	noDelivery := entry
	noDelivery.DeliveryID = ""
	link := domain.SPLink{Kind: domain.ResourceUser, LocalID: 1, SPID: "sp-1", RemoteID: "u-1", Status: domain.StatusProvisioned}
	badLink := link
	badLink.Kind = "ROBOT"
	tests := []struct {
		name     string
		links    []domain.SPLink
		finished []domain.Delivery
		audits   []domain.AuditEntry
	}{
		{"replayed delivery", []domain.SPLink{link}, []domain.Delivery{replayed}, []domain.AuditEntry{entry}},
		{"status not final", []domain.SPLink{link}, []domain.Delivery{sent}, []domain.AuditEntry{entry}},
		{"audit without its delivery", []domain.SPLink{link}, []domain.Delivery{delivered}, []domain.AuditEntry{noDelivery}},
		{"link of no known kind", []domain.SPLink{badLink}, []domain.Delivery{delivered}, []domain.AuditEntry{entry}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := s.RecordOutcomes(ctx(t), domain.Outcomes{Links: tt.links, Delivered: tt.finished, Audit: tt.audits}); domain.KindOf(err) != domain.KindInvalid {
				t.Fatalf("err = %v, want invalid", err)
			}
			if _, err := s.GetLink(ctx(t), domain.ResourceUser, 1, "sp-1"); !domain.IsNotFound(err) {
				t.Errorf("link written anyway: %v", err)
			}
			if got, _ := s.GetDelivery(ctx(t), "d1"); got.Status != domain.DeliveryPending {
				t.Errorf("delivery written anyway: %s", got.Status)
			}
			if entries, _ := s.ListAuditEntriesOfRole(ctx(t), 1); len(entries) != 0 {
				t.Errorf("audit written anyway: %+v", entries)
			}
		})
	}
}
