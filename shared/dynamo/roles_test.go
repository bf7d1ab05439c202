package dynamo_test

import (
	"testing"

	"github.com/edu-invite/invite/shared/domain"
)

func TestCreateAndGetRoleRoundTrips(t *testing.T) {
	s := newStore(t)
	r := role(1, "Researchers", "app-a", "app-b", "app-a")
	expiry := testNow.AddDate(1, 0, 0)
	r.DefaultExpiryDate = &expiry
	r.FedIDOnly = true
	r.CRMRoleAbbrevation = "RES"
	must(t, s.CreateRole(ctx(t), r, []domain.Delivery{delivery("d1", domain.DeliverGroupCreate, testNow)}))

	got, err := s.GetRole(ctx(t), 1)
	must(t, err)
	if got.Version != 1 {
		t.Errorf("version = %d, want 1", got.Version)
	}
	if got.Name != "Researchers" || !got.FedIDOnly || got.CRMRoleAbbrevation != "RES" || got.OrganizationGUID != "org-1" {
		t.Errorf("role read back as %+v", got)
	}
	if got.DefaultExpiryDate == nil || !got.DefaultExpiryDate.Equal(expiry) || !got.Auditable.CreatedAt.Equal(testNow) {
		t.Errorf("times read back as %v / %v", got.DefaultExpiryDate, got.Auditable.CreatedAt)
	}
	if len(got.ApplicationUsages) != 3 || got.ApplicationUsages[1].Application.ManageID != "app-b" ||
		got.ApplicationUsages[1].Application.ProvisioningIDs[0] != "sp-app-b" {
		t.Errorf("application usages read back as %+v", got.ApplicationUsages)
	}
	d, err := s.GetDelivery(ctx(t), "d1")
	must(t, err)
	if d.Status != domain.DeliveryPending || d.Kind != domain.DeliverGroupCreate {
		t.Errorf("delivery written as %+v", d)
	}
	mustNotFound(t, func() error { _, err := s.GetRole(ctx(t), 2); return err }())
}

func TestCreateRoleWithTakenNameWritesNothing(t *testing.T) {
	tests := []struct{ name, taken string }{
		{"same name", "Researchers"},
		{"other case", "RESEARCHERS"},
		{"surrounding space", "  researchers "},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newStore(t)
			must(t, s.CreateRole(ctx(t), role(1, "Researchers", "app-a"), nil))

			err := s.CreateRole(ctx(t), role(2, tt.taken, "app-b"), []domain.Delivery{delivery("d2", domain.DeliverGroupCreate, testNow)})
			mustKind(t, err, domain.KindConflict)
			if err.Error() != `role name "`+tt.taken+`" is already taken` {
				t.Errorf("message %q", err)
			}
			mustNotFound(t, func() error { _, err := s.GetRole(ctx(t), 2); return err }())
			mustNotFound(t, func() error { _, err := s.GetDelivery(ctx(t), "d2"); return err }())
			roles, err := s.ListRolesByManageID(ctx(t), "app-b")
			must(t, err)
			if len(roles) != 0 {
				t.Errorf("app link written: %s", roleNames(roles))
			}
		})
	}
}

func TestCreateRoleWithExistingIDIsConflict(t *testing.T) {
	s := newStore(t)
	must(t, s.CreateRole(ctx(t), role(1, "One"), nil))
	mustKind(t, s.CreateRole(ctx(t), role(1, "Two"), nil), domain.KindConflict)
	// The name of the refused role stays free.
	must(t, s.CreateRole(ctx(t), role(2, "Two"), nil))
}

func TestRenameFreesOldName(t *testing.T) {
	s := newStore(t)
	must(t, s.CreateRole(ctx(t), role(1, "Old name"), nil))
	must(t, s.CreateRole(ctx(t), role(2, "Taken"), nil))
	r, err := s.GetRole(ctx(t), 1)
	must(t, err)

	r.Name = "taken"
	mustKind(t, s.UpdateRole(ctx(t), r, nil), domain.KindConflict)
	if got, _ := s.GetRole(ctx(t), 1); got.Name != "Old name" || got.Version != 1 {
		t.Fatalf("refused rename changed the role: %+v", got)
	}

	r.Name = "New name"
	must(t, s.UpdateRole(ctx(t), r, nil))
	must(t, s.CreateRole(ctx(t), role(3, "old NAME"), nil))
	mustKind(t, s.CreateRole(ctx(t), role(4, "new name"), nil), domain.KindConflict)

	// A change of case only keeps the reservation.
	r, _ = s.GetRole(ctx(t), 1)
	r.Name = "NEW NAME"
	must(t, s.UpdateRole(ctx(t), r, nil))
	mustKind(t, s.CreateRole(ctx(t), role(5, "New Name"), nil), domain.KindConflict)
}

func TestUpdateRoleChecksVersion(t *testing.T) {
	s := newStore(t)
	must(t, s.CreateRole(ctx(t), role(1, "Role"), nil))
	r, err := s.GetRole(ctx(t), 1)
	must(t, err)

	fresh := r
	fresh.Description = "first"
	must(t, s.UpdateRole(ctx(t), fresh, nil))

	stale := r
	stale.Description = "second"
	mustVersionConflict(t, s.UpdateRole(ctx(t), stale, []domain.Delivery{delivery("d", domain.DeliverGroupCreate, testNow)}))
	mustNotFound(t, func() error { _, err := s.GetDelivery(ctx(t), "d"); return err }())

	got, err := s.GetRole(ctx(t), 1)
	must(t, err)
	if got.Description != "first" || got.Version != 2 {
		t.Errorf("role is %q at version %d, want first at 2", got.Description, got.Version)
	}
	mustNotFound(t, s.UpdateRole(ctx(t), role(9, "Nine"), nil))
}

func TestUpdateRoleRewritesApplicationLinks(t *testing.T) {
	s := newStore(t)
	must(t, s.CreateRole(ctx(t), role(1, "Role", "app-a", "app-b"), nil))
	r, _ := s.GetRole(ctx(t), 1)
	moved := role(1, "Role", "app-b", "app-c")
	moved.Version = r.Version
	must(t, s.UpdateRole(ctx(t), moved, nil))

	for manageID, want := range map[string]int{"app-a": 0, "app-b": 1, "app-c": 1} {
		roles, err := s.ListRolesByManageID(ctx(t), manageID)
		must(t, err)
		if len(roles) != want {
			t.Errorf("%s: %d roles (%s), want %d", manageID, len(roles), roleNames(roles), want)
		}
	}
}

func TestDeleteRole(t *testing.T) {
	s := newStore(t)
	must(t, s.CreateRole(ctx(t), role(1, "Role", "app-a"), nil))
	r, _ := s.GetRole(ctx(t), 1)

	stale := r
	stale.Version = 0
	mustVersionConflict(t, s.DeleteRole(ctx(t), stale, nil))

	must(t, s.DeleteRole(ctx(t), r, []domain.Delivery{delivery("d", domain.DeliverGroupDelete, testNow)}))
	mustNotFound(t, func() error { _, err := s.GetRole(ctx(t), 1); return err }())
	if _, err := s.GetDelivery(ctx(t), "d"); err != nil {
		t.Errorf("delivery of the delete: %v", err)
	}
	roles, err := s.ListRolesByManageID(ctx(t), "app-a")
	must(t, err)
	if len(roles) != 0 {
		t.Errorf("app link left: %s", roleNames(roles))
	}
	// The name is free again.
	must(t, s.CreateRole(ctx(t), role(2, "role"), nil))
	mustNotFound(t, s.DeleteRole(ctx(t), r, nil))
}

func TestListRoles(t *testing.T) {
	s := newStore(t)
	other := role(4, "Delta", "app-a")
	other.OrganizationGUID = "org-2"
	noOrg := role(5, "Echo", "app-a")
	noOrg.OrganizationGUID = ""
	for _, r := range []domain.Role{role(1, "charlie", "app-a"), role(2, "Alpha", "app-a", "app-b"), role(3, "Bravo", "app-b"), other, noOrg} {
		must(t, s.CreateRole(ctx(t), r, nil))
	}

	tests := []struct {
		name string
		list func() ([]domain.Role, error)
		want string
	}{
		{"by manage id", func() ([]domain.Role, error) { return s.ListRolesByManageID(ctx(t), "app-a") }, "2:Alpha 1:charlie 4:Delta 5:Echo "},
		{"by other manage id", func() ([]domain.Role, error) { return s.ListRolesByManageID(ctx(t), "app-b") }, "2:Alpha 3:Bravo "},
		{"unknown manage id", func() ([]domain.Role, error) { return s.ListRolesByManageID(ctx(t), "app-z") }, ""},
		{"by organization", func() ([]domain.Role, error) { return s.ListRolesByOrganization(ctx(t), "org-1") }, "2:Alpha 3:Bravo 1:charlie "},
		{"by other organization", func() ([]domain.Role, error) { return s.ListRolesByOrganization(ctx(t), "org-2") }, "4:Delta "},
		{"by ids in given order", func() ([]domain.Role, error) { return s.GetRoles(ctx(t), []int64{3, 99, 1, 3}) }, "3:Bravo 1:charlie "},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			roles, err := tt.list()
			must(t, err)
			if got := roleNames(roles); got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

func TestGetRolesBeyondOneBatch(t *testing.T) {
	s := newStore(t)
	var ids []int64
	for i := int64(1); i <= 130; i++ {
		must(t, s.CreateRole(ctx(t), domain.Role{ID: i, Name: "role " + string(rune('A'+i%26)) + id(i)}, nil))
		ids = append(ids, i)
	}
	roles, err := s.GetRoles(ctx(t), ids)
	must(t, err)
	if len(roles) != 130 || roles[0].ID != 1 || roles[129].ID != 130 {
		t.Fatalf("got %d roles", len(roles))
	}
}
