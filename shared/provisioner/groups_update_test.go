package provisioner_test

import (
	"context"
	"testing"

	"github.com/edu-invite/invite/shared/domain"
	"github.com/edu-invite/invite/shared/service"
)

// A group.update reaches an SP that has neither the group nor its members
// (an application added to the role) and one that has both (a rename):
// either way the SP ends with the group under its new name with every
// current member, once, however often it is delivered.
func TestGroupUpdateMakesTheSPMatchTheRole(t *testing.T) {
	for _, membership := range []string{"PATCH", "PUT"} {
		t.Run(membership, func(t *testing.T) {
			f := newFixture(t, membership, "right-token")
			ctx := context.Background()
			roleID := f.acceptedGuest(t, "alice@example.org")
			f.queue.Take() // the SP never heard of the role or of alice

			role, err := f.svc.GetRole(ctx, superUser, roleID)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := f.svc.UpdateRole(ctx, superUser, roleID, service.RoleInput{Name: "Wiki authors", Description: role.Description,
				ApplicationUsages: []service.ApplicationUsageInput{{ManageID: "wiki"}}}); err != nil {
				t.Fatal(err)
			}
			ds := f.queue.Take()
			var kinds []domain.DeliveryKind
			for _, d := range ds {
				if d.SPID == "wiki-sp" {
					kinds = append(kinds, d.Kind)
				}
			}
			if len(kinds) != 1 || kinds[0] != domain.DeliverGroupUpdate {
				t.Fatalf("deliveries to the SP %v, want one group.update", kinds)
			}
			for attempt := 1; attempt <= 2; attempt++ {
				resp, err := f.prov.HandleSQS(ctx, batch(t, ds, "wiki-sp", attempt))
				if err != nil || len(resp.BatchItemFailures) != 0 {
					t.Fatalf("attempt %d: failures %v, err %v", attempt, resp.BatchItemFailures, err)
				}
				users, groups := f.sp.Users(), f.sp.Groups()
				if len(users) != 1 || len(groups) != 1 || groups[0].DisplayName != "Wiki authors" ||
					len(groups[0].Members) != 1 || groups[0].Members[0].Value != users[0].ID {
					t.Fatalf("attempt %d: SP users=%+v groups=%+v", attempt, users, groups)
				}
			}

			// A second rename at an SP that has everything replaces the name.
			if _, err := f.svc.UpdateRole(ctx, superUser, roleID, service.RoleInput{Name: "Wiki writers",
				ApplicationUsages: []service.ApplicationUsageInput{{ManageID: "wiki"}}}); err != nil {
				t.Fatal(err)
			}
			if resp, _ := f.prov.HandleSQS(ctx, batch(t, f.queue.Take(), "wiki-sp", 1)); len(resp.BatchItemFailures) != 0 {
				t.Fatalf("failures: %v", resp.BatchItemFailures)
			}
			if groups := f.sp.Groups(); len(groups) != 1 || groups[0].DisplayName != "Wiki writers" || len(groups[0].Members) != 1 || len(f.sp.Users()) != 1 {
				t.Fatalf("SP groups after the second rename: %+v", groups)
			}
		})
	}
}

// userReadHook runs a function once, right after the user has been read:
// in a group.update, the moment it has decided to create the user at the
// SP and not created it yet.
type userReadHook struct {
	domain.Store
	userID int64
	armed  bool
	hook   func()
}

func (h *userReadHook) GetUser(ctx context.Context, id int64) (domain.User, error) {
	u, err := h.Store.GetUser(ctx, id)
	if id == h.userID && h.armed {
		h.armed = false
		h.hook()
	}
	return u, err
}

// A group.update to an SP new to the role creates the members from the
// group's line. A member deleted from the service meanwhile, whose deletion
// at that SP already ran (and found nothing there), is not left behind at
// the SP: the group's line deletes the user it just created.
func TestGroupUpdateLeavesNoUserDeletedMeanwhile(t *testing.T) {
	f := newFixture(t, "PATCH", "right-token")
	ctx := context.Background()
	roleID := f.acceptedGuest(t, "alice@example.org")
	f.queue.Take() // the SP never heard of the role or of alice
	urs, _, err := f.store.ListUserRolesOfRole(ctx, roleID, "", 10)
	if err != nil || len(urs) != 1 {
		t.Fatalf("members %v, %v", urs, err)
	}
	alice := urs[0].UserID
	role, err := f.svc.GetRole(ctx, superUser, roleID)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.svc.UpdateRole(ctx, superUser, roleID, service.RoleInput{Name: "Wiki authors", Description: role.Description,
		ApplicationUsages: []service.ApplicationUsageInput{{ManageID: "wiki"}}}); err != nil {
		t.Fatal(err)
	}
	update := f.queue.Take()

	hooked := &userReadHook{Store: f.store, userID: alice, armed: true}
	hooked.hook = func() {
		if err := f.svc.DeleteUser(ctx, superUser, alice); err != nil {
			t.Errorf("delete alice: %v", err)
			return
		}
		// Alice's own line runs first: nothing of hers is at the SP yet.
		resp, err := f.prov.HandleSQS(ctx, batch(t, f.queue.Take(), "wiki-sp", 1))
		if err != nil || len(resp.BatchItemFailures) != 0 {
			t.Errorf("alice's deletion: failures %v, err %v", resp.BatchItemFailures, err)
		}
	}
	f.prov.Store = hooked
	if resp, err := f.prov.HandleSQS(ctx, batch(t, update, "wiki-sp", 1)); err != nil || len(resp.BatchItemFailures) != 0 {
		t.Fatalf("group.update: failures %v, err %v", resp.BatchItemFailures, err)
	}
	if users := f.sp.Users(); len(users) != 0 {
		t.Errorf("users left at the SP after their deletion: %+v", users)
	}
	if groups := f.sp.Groups(); len(groups) != 1 || len(groups[0].Members) != 0 {
		t.Errorf("SP groups %+v, want the group without members", groups)
	}
}
