package dynamo_test

import (
	"testing"

	"github.com/edu-invite/invite/shared/domain"
)

func TestListMembersOfRole(t *testing.T) {
	s := newStore(t)
	must(t, s.CreateRole(ctx(t), role(1, "One"), nil))
	must(t, s.CreateRole(ctx(t), role(2, "Two"), nil))
	for i := int64(1); i <= 5; i++ {
		must(t, s.SaveAcceptance(ctx(t), domain.Acceptance{User: user(10+i, "sub-"+id(10+i)), NewUser: true,
			NewUserRoles: []domain.UserRole{membership(100+i, 10+i, 1)}}))
	}
	// A membership in another role is not listed.
	must(t, s.SaveAcceptance(ctx(t), domain.Acceptance{User: user(20, "sub-20"), NewUser: true,
		NewUserRoles: []domain.UserRole{membership(200, 20, 2)}}))

	tests := []struct {
		name     string
		limit    int
		want     int
		wantMore bool
	}{
		{"all", 10, 5, false},
		{"exactly all", 5, 5, false},
		{"fewer than all", 3, 3, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			members, more, err := s.ListMembersOfRole(ctx(t), 1, tc.limit)
			must(t, err)
			if len(members) != tc.want || more != tc.wantMore {
				t.Fatalf("%d members, more %v; want %d, %v", len(members), more, tc.want, tc.wantMore)
			}
			for _, m := range members {
				if m.UserRole.RoleID != 1 || m.User.ID != m.UserRole.UserID || m.User.Sub != "sub-"+id(m.User.ID) || m.UserRole.ID != 90+m.User.ID {
					t.Errorf("member %+v", m)
				}
			}
		})
	}
	// A membership whose user is gone is left out.
	gone, err := s.GetUser(ctx(t), 15)
	must(t, err)
	must(t, s.ApplyRemoval(ctx(t), domain.Removal{DeleteUser: &gone}))
	if members, _, err := s.ListMembersOfRole(ctx(t), 1, 10); err != nil || len(members) != 4 {
		t.Fatalf("after the user's deletion: %d members, %v", len(members), err)
	}
	if members, more, err := s.ListMembersOfRole(ctx(t), 3, 10); err != nil || len(members) != 0 || more {
		t.Fatalf("role without members: %v %v %v", members, more, err)
	}
}

// U8 stores memberships as an acceptance without an invitation: the user
// is new and unique by sub, nothing is written when a condition fails.
func TestSaveAcceptanceWithoutInvitation(t *testing.T) {
	s := newStore(t)
	must(t, s.CreateRole(ctx(t), role(1, "One"), nil))
	acc := domain.Acceptance{User: user(10, "sub-10"), NewUser: true, NewUserRoles: []domain.UserRole{membership(100, 10, 1)},
		Audit:      []domain.AuditEntry{{ID: 1000, UserID: 10, RoleID: 1, Action: domain.AuditAdd, Authority: domain.Guest, CreatedAt: testNow}},
		Deliveries: []domain.Delivery{{ID: "d-user", SPID: "sp-1", Kind: domain.DeliverUserCreate, UserID: 10}}}
	must(t, s.SaveAcceptance(ctx(t), acc))
	u, err := s.GetUserBySub(ctx(t), "sub-10")
	must(t, err)
	if u.ID != 10 || u.Version != 1 {
		t.Fatalf("user %+v", u)
	}
	if ur, err := s.GetUserRole(ctx(t), 10, 1); err != nil || ur.ID != 100 {
		t.Fatalf("membership %+v, %v", ur, err)
	}
	if d, err := s.GetDelivery(ctx(t), "d-user"); err != nil || d.Status != domain.DeliveryPending {
		t.Fatalf("delivery %+v, %v", d, err)
	}
	if entries, err := s.ListAuditEntriesOfRole(ctx(t), 1); err != nil || len(entries) != 1 {
		t.Fatalf("audit %+v, %v", entries, err)
	}

	// Another user with the same sub: refused whole.
	dup := domain.Acceptance{User: user(11, "sub-10"), NewUser: true, NewUserRoles: []domain.UserRole{membership(101, 11, 1)}}
	mustKind(t, s.SaveAcceptance(ctx(t), dup), domain.KindConflict)
	mustNotFound(t, func() error { _, err := s.GetUser(ctx(t), 11); return err }())
	mustNotFound(t, func() error { _, err := s.GetUserRole(ctx(t), 11, 1); return err }())
}
