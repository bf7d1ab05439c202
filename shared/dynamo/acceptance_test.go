package dynamo_test

import (
	"errors"
	"testing"
	"time"

	"github.com/edu-invite/invite/shared/domain"
	"github.com/edu-invite/invite/shared/dynamo"
)

func invitation(invID int64, digest string, roleIDs ...int64) domain.Invitation {
	return domain.Invitation{
		ID:                invID,
		IntendedAuthority: domain.Guest,
		Language:          domain.English,
		Status:            domain.InvitationOpen,
		Email:             "guest@example.org",
		CreatedAt:         testNow,
		ExpiryDate:        testNow.Add(14 * 24 * time.Hour),
		RoleIDs:           roleIDs,
		InviterUserID:     7,
		HashDigest:        digest,
	}
}

func user(userID int64, sub string) domain.User {
	return domain.User{ID: userID, Sub: sub, Email: sub + "@example.org", GivenName: "Given", CreatedAt: testNow}
}

func membership(urID, userID, roleID int64) domain.UserRole {
	end := testNow.AddDate(0, 6, 0)
	return domain.UserRole{ID: urID, UserID: userID, RoleID: roleID, Authority: domain.Guest, CreatedAt: testNow, EndDate: &end}
}

// acceptance builds the acceptance of invitation 1 (version 1, roles 1 and
// 2) by a new user 10.
func acceptance() domain.Acceptance {
	inv := invitation(1, "digest-1", 1, 2)
	inv.Version = 1
	inv.Status = domain.InvitationAccepted
	accepted := testNow
	inv.AcceptedAt = &accepted
	return domain.Acceptance{
		Invitation:   inv,
		User:         user(10, "sub-10"),
		NewUser:      true,
		NewUserRoles: []domain.UserRole{membership(100, 10, 1), membership(101, 10, 2)},
		Audit: []domain.AuditEntry{
			{ID: 1000, UserID: 10, RoleID: 1, Action: domain.AuditAdd, Authority: domain.Guest, CreatedAt: testNow},
			{ID: 1001, UserID: 10, RoleID: 2, Action: domain.AuditAdd, Authority: domain.Guest, CreatedAt: testNow},
		},
		Deliveries: []domain.Delivery{
			{ID: "d-user", SPID: "sp-1", Kind: domain.DeliverUserCreate, UserID: 10},
			{ID: "d-member", SPID: "sp-1", Kind: domain.DeliverMemberAdd, UserID: 10, RoleID: 1},
		},
	}
}

func storeWithOpenInvitation(t *testing.T) *dynamo.Store {
	t.Helper()
	s := newStore(t)
	must(t, s.CreateRole(ctx(t), role(1, "One"), nil))
	must(t, s.CreateRole(ctx(t), role(2, "Two"), nil))
	must(t, s.CreateInvitations(ctx(t), []domain.Invitation{invitation(1, "digest-1", 1, 2)}))
	return s
}

func TestSaveAcceptanceWritesEverything(t *testing.T) {
	s := storeWithOpenInvitation(t)
	must(t, s.SaveAcceptance(ctx(t), acceptance()))

	inv, err := s.GetInvitation(ctx(t), 1)
	must(t, err)
	if inv.Status != domain.InvitationAccepted || inv.AcceptedAt == nil || inv.Version != 2 {
		t.Errorf("invitation is %s accepted at %v, version %d", inv.Status, inv.AcceptedAt, inv.Version)
	}
	u, err := s.GetUserBySub(ctx(t), "sub-10")
	must(t, err)
	if u.ID != 10 || u.Version != 1 || u.Email != "sub-10@example.org" {
		t.Errorf("user %+v", u)
	}
	urs, err := s.ListUserRolesOfUser(ctx(t), 10)
	must(t, err)
	if len(urs) != 2 || urs[0].RoleID != 1 || urs[1].RoleID != 2 || urs[0].Version != 1 || urs[0].EndDate == nil {
		t.Errorf("memberships %+v", urs)
	}
	for _, roleID := range []int64{1, 2} {
		entries, err := s.ListAuditEntriesOfRole(ctx(t), roleID)
		must(t, err)
		if len(entries) != 1 || entries[0].UserID != 10 || entries[0].Action != domain.AuditAdd {
			t.Errorf("audit of role %d: %+v", roleID, entries)
		}
	}
	for _, deliveryID := range []string{"d-user", "d-member"} {
		d, err := s.GetDelivery(ctx(t), deliveryID)
		must(t, err)
		if d.Status != domain.DeliveryPending || !d.CreatedAt.Equal(testNow) {
			t.Errorf("delivery %+v", d)
		}
	}
	open, err := s.ListOpenInvitationsOfRole(ctx(t), 1)
	must(t, err)
	if len(open) != 0 {
		t.Errorf("accepted invitation still listed as open")
	}
}

func TestSaveAcceptanceFailuresWriteNothing(t *testing.T) {
	tests := []struct {
		name    string
		prepare func(t *testing.T, s *dynamo.Store)
		change  func(a *domain.Acceptance)
		kind    domain.ErrorKind
	}{
		{
			name: "already accepted",
			prepare: func(t *testing.T, s *dynamo.Store) {
				first := acceptance()
				first.User, first.NewUserRoles, first.Audit, first.Deliveries = user(11, "sub-11"), nil, nil, nil
				must(t, s.SaveAcceptance(ctx(t), first))
			},
			kind: domain.KindConflict, // every loser of concurrent accepts gets 409
		},
		{
			name:   "stale invitation version",
			change: func(a *domain.Acceptance) { a.Invitation.Version = 0 },
			kind:   domain.KindConflict,
		},
		{
			name:   "unknown invitation",
			change: func(a *domain.Acceptance) { a.Invitation.ID = 99 },
			kind:   domain.KindNotFound,
		},
		{
			name: "sub already taken",
			prepare: func(t *testing.T, s *dynamo.Store) {
				must(t, s.CreateInvitations(ctx(t), []domain.Invitation{invitation(2, "digest-2", 1)}))
				other := acceptance()
				other.Invitation = invitation(2, "digest-2", 1)
				other.Invitation.Version = 1
				other.Invitation.Status = domain.InvitationAccepted
				other.User = user(11, "sub-10")
				other.NewUserRoles, other.Audit, other.Deliveries = nil, nil, nil
				must(t, s.SaveAcceptance(ctx(t), other))
			},
			kind: domain.KindConflict,
		},
		{
			name:   "stale existing user",
			change: func(a *domain.Acceptance) { a.NewUser = false; a.User.Version = 3 },
			kind:   domain.KindNotFound,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := storeWithOpenInvitation(t)
			if tt.prepare != nil {
				tt.prepare(t, s)
			}
			before, err := s.GetInvitation(ctx(t), 1)
			must(t, err)
			a := acceptance()
			if tt.change != nil {
				tt.change(&a)
			}

			err = s.SaveAcceptance(ctx(t), a)
			if err == nil {
				t.Fatal("acceptance saved")
			}
			mustKind(t, err, tt.kind)

			after, err := s.GetInvitation(ctx(t), 1)
			must(t, err)
			if after.Version != before.Version || after.Status != before.Status {
				t.Errorf("invitation changed from %s/%d to %s/%d", before.Status, before.Version, after.Status, after.Version)
			}
			mustNotFound(t, func() error { _, err := s.GetUser(ctx(t), 10); return err }())
			mustNotFound(t, func() error { _, err := s.GetUserRole(ctx(t), 10, 2); return err }())
			mustNotFound(t, func() error { _, err := s.GetDelivery(ctx(t), "d-user"); return err }())
			if entries, _ := s.ListAuditEntriesOfRole(ctx(t), 2); len(entries) != 0 {
				t.Errorf("audit written: %+v", entries)
			}
		})
	}
}

func TestSaveAcceptanceByExistingUserUpdatesAndAddsMemberships(t *testing.T) {
	s := storeWithOpenInvitation(t)
	// User 10 exists with a membership of role 1 from an earlier invitation.
	must(t, s.CreateInvitations(ctx(t), []domain.Invitation{invitation(2, "digest-2", 1)}))
	earlier := acceptance()
	earlier.Invitation = invitation(2, "digest-2", 1)
	earlier.Invitation.Version, earlier.Invitation.Status = 1, domain.InvitationAccepted
	earlier.NewUserRoles, earlier.Audit, earlier.Deliveries = earlier.NewUserRoles[:1], nil, nil
	must(t, s.SaveAcceptance(ctx(t), earlier))

	u, err := s.GetUser(ctx(t), 10)
	must(t, err)
	existing, err := s.GetUserRole(ctx(t), 10, 1)
	must(t, err)
	a := acceptance()
	a.NewUser = false
	a.User = u
	a.User.GivenName = "Changed"
	existing.Authority = domain.Inviter
	a.UpdatedUserRoles = []domain.UserRole{existing}
	a.NewUserRoles = a.NewUserRoles[1:]
	must(t, s.SaveAcceptance(ctx(t), a))

	u, err = s.GetUser(ctx(t), 10)
	must(t, err)
	if u.GivenName != "Changed" || u.Version != 2 {
		t.Errorf("user %+v", u)
	}
	ur, err := s.GetUserRole(ctx(t), 10, 1)
	must(t, err)
	if ur.Authority != domain.Inviter || ur.Version != 2 {
		t.Errorf("updated membership %+v", ur)
	}
	if _, err := s.GetUserRole(ctx(t), 10, 2); err != nil {
		t.Errorf("new membership: %v", err)
	}
}

func TestSaveAcceptanceRefusesTooManyWrites(t *testing.T) {
	s := storeWithOpenInvitation(t)
	a := acceptance()
	for i := range 100 {
		a.Audit = append(a.Audit, domain.AuditEntry{ID: int64(2000 + i), RoleID: 1, Action: domain.AuditAdd})
	}
	if err := s.SaveAcceptance(ctx(t), a); !errors.Is(err, dynamo.ErrTransactionTooLarge) {
		t.Fatalf("want ErrTransactionTooLarge, got %v", err)
	}
	if inv, _ := s.GetInvitation(ctx(t), 1); inv.Status != domain.InvitationOpen {
		t.Errorf("invitation changed")
	}
}

func TestSaveAcceptanceOfExistingMembershipIsConflict(t *testing.T) {
	s := storeWithOpenInvitation(t)
	must(t, s.CreateInvitations(ctx(t), []domain.Invitation{invitation(2, "digest-2", 2)}))
	earlier := acceptance()
	earlier.Invitation = invitation(2, "digest-2", 2)
	earlier.Invitation.Version, earlier.Invitation.Status = 1, domain.InvitationAccepted
	earlier.NewUserRoles, earlier.Audit, earlier.Deliveries = earlier.NewUserRoles[1:], nil, nil
	must(t, s.SaveAcceptance(ctx(t), earlier))

	a := acceptance() // adds roles 1 and 2, but 2 is held already
	a.NewUser = false
	a.User.Version = 1
	err := s.SaveAcceptance(ctx(t), a)
	mustKind(t, err, domain.KindConflict)
	if err.Error() != "user 10 already has role 2" {
		t.Errorf("message %q", err)
	}
	mustNotFound(t, func() error { _, err := s.GetUserRole(ctx(t), 10, 1); return err }())
	if u, _ := s.GetUser(ctx(t), 10); u.Version != 1 {
		t.Errorf("user written: version %d", u.Version)
	}
}
