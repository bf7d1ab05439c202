package dynamo

import (
	"testing"
	"time"

	"github.com/edu-invite/invite/shared/domain"
)

// TestDeliveryIndexKeysFollowTheStatus: only the statuses something lists
// are in gsi1 (pending for the sweep, sent for the local re-queue, failed
// for the dead letters), only failed ones in gsi2, and only delivered ones
// expire.
func TestDeliveryIndexKeysFollowTheStatus(t *testing.T) {
	now := time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC)
	s := &Store{now: func() time.Time { return now }}
	cases := []struct {
		status         domain.DeliveryStatus
		gsi1, gsi2     string
		expires        bool
		listedByStatus bool
	}{
		{domain.DeliveryPending, "OUTBOX#pending", "", false, true},
		{domain.DeliverySent, "OUTBOX#sent", "", false, true},
		{domain.DeliveryFailed, "OUTBOX#failed", "DLQ#sp-1", false, true},
		{domain.DeliveryDelivered, "", "", true, false},
		{domain.DeliveryDiscarded, "", "", false, false},
	}
	for _, c := range cases {
		t.Run(string(c.status), func(t *testing.T) {
			rec := s.deliveryRecord(domain.Delivery{ID: "d1", SPID: "sp-1", Kind: domain.DeliverUserCreate, Status: c.status, CreatedAt: now})
			if rec.GSI1PK != c.gsi1 || (rec.GSI1SK != "") != c.listedByStatus {
				t.Errorf("gsi1 = %q / %q, want %q (listed: %v)", rec.GSI1PK, rec.GSI1SK, c.gsi1, c.listedByStatus)
			}
			if rec.GSI2PK != c.gsi2 {
				t.Errorf("gsi2 = %q, want %q", rec.GSI2PK, c.gsi2)
			}
			if (rec.TTL != 0) != c.expires {
				t.Errorf("ttl = %d, want expiring %v", rec.TTL, c.expires)
			}
		})
	}
}
