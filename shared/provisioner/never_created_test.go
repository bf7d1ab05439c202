package provisioner_test

import (
	"context"
	"testing"
	"time"

	"github.com/edu-invite/invite/shared/domain"
)

// A user whose creation at an SP was still being retried (pending) or was
// dead-lettered (failed) when the user left the service never reaches
// that SP: the creation's retry finds the user gone and the deletion finds
// nothing at the SP. The link then says deprovisioned, as after any
// deletion, not pending or failed for ever.
func TestUserDeletionSettlesACreationThatNeverReachedTheSP(t *testing.T) {
	for _, status := range []domain.ProvisioningStatus{domain.StatusPending, domain.StatusFailed} {
		t.Run(string(status), func(t *testing.T) {
			f := newFixture(t, "PATCH", "right-token")
			ctx := context.Background()
			f.acceptedGuest(t, "nora@example.org")
			created := f.queue.Take()
			u, err := f.store.GetUserBySub(ctx, "sub-nora@example.org")
			if err != nil {
				t.Fatal(err)
			}
			// What an attempt that failed before reaching the SP leaves.
			if err := f.store.PutLink(ctx, domain.SPLink{Kind: domain.ResourceUser, LocalID: u.ID, SPID: "wiki-sp",
				Status: status, LastError: "SP answered 503", Attempts: 1, UpdatedAt: time.Now()}); err != nil {
				t.Fatal(err)
			}
			if err := f.svc.DeleteUser(ctx, superUser, u.ID); err != nil {
				t.Fatal(err)
			}
			// The user's line: the creation's retry, then the deletion.
			var line []domain.Delivery
			for _, d := range append(created, f.queue.Take()...) {
				if d.UserID == u.ID && d.OrderKey == domain.ResourceLine(domain.ResourceUser, "wiki-sp", u.ID) {
					line = append(line, d)
				}
			}
			if len(line) < 2 || line[len(line)-1].Kind != domain.DeliverUserDelete {
				t.Fatalf("user's line at wiki-sp %+v, want its creation then its deletion", line)
			}
			resp, err := f.prov.HandleSQS(ctx, batch(t, line, "wiki-sp", 2))
			if err != nil || len(resp.BatchItemFailures) != 0 {
				t.Fatalf("%v, %v", resp.BatchItemFailures, err)
			}
			if users := f.sp.Users(); len(users) != 0 {
				t.Fatalf("users at the SP: %+v", users)
			}
			l, err := f.store.GetLink(ctx, domain.ResourceUser, u.ID, "wiki-sp")
			if err != nil || l.Status != domain.StatusDeprovisioned {
				t.Fatalf("user's link at wiki-sp %+v, %v; want deprovisioned", l, err)
			}
		})
	}
}
