package dynamo_test

import (
	"testing"
	"time"

	"github.com/edu-invite/invite/shared/domain"
)

// Deliveries the queue accepted are marked sent together, each only while
// it is still pending: one the provisioner finished already keeps its
// final status, and the others are marked all the same; a missing one is
// reported after the others are marked.
func TestMarkDeliveriesSent(t *testing.T) {
	for _, tc := range []struct {
		name      string
		delivered string // finished before the mark
		extra     string // not in the table
		wantErr   bool
	}{
		{name: "all pending"},
		{name: "one finished already", delivered: "d2"},
		{name: "one missing", extra: "gone", wantErr: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := newStore(t)
			var ds []domain.Delivery
			for _, id := range []string{"d1", "d2", "d3"} {
				ds = append(ds, delivery(id, domain.DeliverMemberAdd, testNow.Add(-time.Hour)))
			}
			must(t, s.CreateRole(ctx(t), role(1, "One"), ds))
			if tc.delivered != "" {
				must(t, s.UpdateDeliveryStatus(ctx(t), domain.Delivery{ID: tc.delivered, Status: domain.DeliveryDelivered, Attempts: 1}))
			}
			marked := ds
			if tc.extra != "" {
				marked = append([]domain.Delivery{delivery(tc.extra, domain.DeliverMemberAdd, testNow)}, ds...)
			}
			err := s.MarkDeliveriesSent(ctx(t), marked)
			if (err != nil) != tc.wantErr {
				t.Fatalf("err = %v, want an error: %v", err, tc.wantErr)
			}
			for _, d := range ds {
				got, err := s.GetDelivery(ctx(t), d.ID)
				must(t, err)
				want := domain.DeliverySent
				if d.ID == tc.delivered {
					want = domain.DeliveryDelivered
				}
				if got.Status != want || got.Kind != domain.DeliverMemberAdd || got.SPID != "sp-1" {
					t.Errorf("%s: %+v, want status %s", d.ID, got, want)
				}
			}
			unsent, err := s.ListUnsentDeliveries(ctx(t), testNow, 10)
			must(t, err)
			if len(unsent) != 0 {
				t.Errorf("still listed as unsent: %+v", unsent)
			}
		})
	}
}
