package provisioner_test

import (
	"context"
	"testing"
	"time"

	"github.com/edu-invite/invite/shared/domain"
)

// TestAuditRowsOfDeletionsNameWhoAndWhat: the outcomes of a group's and a
// user's deletion at an SP are audited with their own ids, as
// GROUP_DELETED and DEPROVISIONED, with the role's name and the person's
// e-mail although both are gone from the service when the deliveries run.
func TestAuditRowsOfDeletionsNameWhoAndWhat(t *testing.T) {
	f := newFixture(t, "PATCH", "right-token")
	ctx := context.Background()
	const email = "dora@example.org"
	roleID := f.acceptedGuest(t, email)
	deliver := func(what string) {
		t.Helper()
		resp, err := f.prov.HandleSQS(ctx, batch(t, f.queue.Take(), "wiki-sp", 1))
		if err != nil || len(resp.BatchItemFailures) != 0 {
			t.Fatalf("%s: %v %v", what, resp.BatchItemFailures, err)
		}
	}
	deliver("acceptance")
	role, err := f.store.GetRole(ctx, roleID)
	if err != nil {
		t.Fatal(err)
	}
	user, err := f.store.GetUserBySub(ctx, "sub-"+email)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.svc.DeleteRole(ctx, superUser, roleID); err != nil {
		t.Fatal(err)
	}
	// The role was the user's last: the user goes with it, at the SP too.
	deliver("role deletion")
	if _, err := f.store.GetUser(ctx, user.ID); !domain.IsNotFound(err) {
		t.Fatalf("user after the deletion of its last role: %v", err)
	}

	entries, err := f.store.ListRecentAuditEntries(ctx, 0, time.Time{}, 100)
	if err != nil {
		t.Fatal(err)
	}
	byKind := map[domain.DeliveryKind]domain.AuditEntry{}
	ids := map[int64]bool{}
	for _, e := range entries {
		if e.ID <= 0 || ids[e.ID] {
			t.Errorf("audit entry without an id of its own: %+v", e)
		}
		ids[e.ID] = true
		if e.SP == "wiki-sp" {
			byKind[e.DeliveryKind] = e
		}
	}
	for _, want := range []struct {
		kind            domain.DeliveryKind
		action          domain.AuditAction
		email, roleName string
	}{
		{domain.DeliverUserCreate, domain.AuditProvisioned, email, ""},
		{domain.DeliverMemberAdd, domain.AuditProvisioned, email, role.Name},
		{domain.DeliverGroupDelete, domain.AuditGroupDeleted, "", role.Name},
		{domain.DeliverUserDelete, domain.AuditDeprovisioned, email, ""},
	} {
		e, ok := byKind[want.kind]
		if !ok {
			t.Errorf("no audit entry of %s at wiki-sp in %+v", want.kind, entries)
			continue
		}
		if e.Action != want.action || e.UserEmail != want.email || e.RoleName != want.roleName || e.CreatedBy != "provisioner" || e.Reason != "" {
			t.Errorf("%s: %+v, want %s with e-mail %q and role %q by the provisioner", want.kind, e, want.action, want.email, want.roleName)
		}
	}
}
