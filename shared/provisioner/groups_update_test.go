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
			f.queue.take() // the SP never heard of the role or of alice

			role, err := f.svc.GetRole(ctx, superUser, roleID)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := f.svc.UpdateRole(ctx, superUser, roleID, service.RoleInput{Name: "Wiki authors", Description: role.Description,
				ApplicationUsages: []service.ApplicationUsageInput{{ManageID: "wiki"}}}); err != nil {
				t.Fatal(err)
			}
			ds := f.queue.take()
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
			if resp, _ := f.prov.HandleSQS(ctx, batch(t, f.queue.take(), "wiki-sp", 1)); len(resp.BatchItemFailures) != 0 {
				t.Fatalf("failures: %v", resp.BatchItemFailures)
			}
			if groups := f.sp.Groups(); len(groups) != 1 || groups[0].DisplayName != "Wiki writers" || len(groups[0].Members) != 1 || len(f.sp.Users()) != 1 {
				t.Fatalf("SP groups after the second rename: %+v", groups)
			}
		})
	}
}
