package dynamo_test

import (
	"errors"
	"testing"
	"time"

	"github.com/edu-invite/invite/shared/domain"
	"github.com/edu-invite/invite/shared/dynamo"
)

// acceptedStore has user 10 with memberships 100 (role 1) and 101 (role 2),
// ending in six months (see membership).
func acceptedStore(t *testing.T) *dynamo.Store {
	t.Helper()
	s := storeWithOpenInvitation(t)
	must(t, s.SaveAcceptance(ctx(t), acceptance()))
	return s
}

func TestListUserRolesEndingBetween(t *testing.T) {
	s := acceptedStore(t)
	end := testNow.AddDate(0, 6, 0)
	tests := []struct {
		name     string
		from, to time.Time
		want     int
	}{
		{"around the end", end.Add(-time.Hour), end.Add(time.Hour), 2},
		{"days before, spanning several day partitions", end.AddDate(0, 0, -3), end.Add(time.Nanosecond), 2},
		{"up to but excluding the end", end.AddDate(0, 0, -3), end, 0},
		{"after the end", end.Add(time.Nanosecond), end.AddDate(0, 0, 30), 0},
		{"empty range", end, end, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			urs, err := s.ListUserRolesEndingBetween(ctx(t), tc.from, tc.to, 10)
			must(t, err)
			if len(urs) != tc.want {
				t.Fatalf("found %d memberships, want %d", len(urs), tc.want)
			}
		})
	}
	urs, err := s.ListUserRolesEndingBetween(ctx(t), end.Add(-time.Hour), end.Add(time.Hour), 1)
	must(t, err)
	if len(urs) != 1 {
		t.Fatalf("limit 1 returned %d", len(urs))
	}
}

func TestRecordReminderOnlyOnce(t *testing.T) {
	s := acceptedStore(t)
	ur, err := s.GetUserRole(ctx(t), 10, 1)
	must(t, err)
	mail := func(id string) domain.MailDelivery {
		return domain.MailDelivery{ID: id, Email: domain.Email{To: "a@example.org", Subject: "Reminder"}}
	}
	next := ur
	next.ExpiryNotifications = 1
	must(t, s.RecordReminder(ctx(t), next, 0, mail("m1")))
	// A second run that read the same membership loses: no second mail.
	mustKind(t, s.RecordReminder(ctx(t), next, 0, mail("m2")), domain.KindConflict)
	pending, err := s.ListPendingMails(ctx(t), testNow.Add(time.Hour), 10)
	must(t, err)
	if len(pending) != 1 || pending[0].ID != "m1" {
		t.Fatalf("pending mails = %+v, want only m1", pending)
	}
	got, err := s.GetUserRole(ctx(t), 10, 1)
	must(t, err)
	if got.ExpiryNotifications != 1 {
		t.Fatalf("expiryNotifications = %d", got.ExpiryNotifications)
	}
}

func TestApplyRemovalOfLastMembershipDeletesUser(t *testing.T) {
	s := acceptedStore(t)
	u, err := s.GetUser(ctx(t), 10)
	must(t, err)
	first, _ := s.GetUserRole(ctx(t), 10, 1)
	must(t, s.ApplyRemoval(ctx(t), domain.Removal{UserRoles: []domain.UserRole{first},
		Deliveries: []domain.Delivery{{ID: "rm-1", SPID: "sp-1", Kind: domain.DeliverMemberRemove, UserID: 10, RoleID: 1}},
		Mails:      []domain.MailDelivery{{ID: "ended-1", Email: domain.Email{To: "x@example.org"}}}}))
	mustNotFound(t, func() error { _, err := s.GetUserRole(ctx(t), 10, 1); return err }())
	if _, err := s.GetUser(ctx(t), 10); err != nil {
		t.Fatalf("user removed with a membership left: %v", err)
	}
	// A stale removal (membership already gone) changes nothing.
	mustNotFound(t, s.ApplyRemoval(ctx(t), domain.Removal{UserRoles: []domain.UserRole{first},
		Deliveries: []domain.Delivery{{ID: "rm-again", SPID: "sp-1", Kind: domain.DeliverMemberRemove, UserID: 10, RoleID: 1}}}))
	mustNotFound(t, func() error { _, err := s.GetDelivery(ctx(t), "rm-again"); return err }())

	second, _ := s.GetUserRole(ctx(t), 10, 2)
	must(t, s.ApplyRemoval(ctx(t), domain.Removal{UserRoles: []domain.UserRole{second}, DeleteUser: &u,
		Deliveries: []domain.Delivery{{ID: "del-user", SPID: "sp-1", Kind: domain.DeliverUserDelete, UserID: 10}}}))
	mustNotFound(t, func() error { _, err := s.GetUser(ctx(t), 10); return err }())
	mustNotFound(t, func() error { _, err := s.GetUserBySub(ctx(t), u.Sub); return err }())
	if d, err := s.GetDelivery(ctx(t), "del-user"); err != nil || d.Kind != domain.DeliverUserDelete {
		t.Fatalf("user delete delivery = %+v, %v", d, err)
	}
}

func TestMailOutbox(t *testing.T) {
	s := newStore(t)
	must(t, s.PutMails(ctx(t), []domain.MailDelivery{
		{ID: "b", Email: domain.Email{To: "b@example.org"}, CreatedAt: testNow.Add(time.Second)},
		{ID: "a", Email: domain.Email{To: "a@example.org", Subject: "S", HTML: "<p>h</p>", Text: "t"}, CreatedAt: testNow},
	}))
	pending, err := s.ListPendingMails(ctx(t), testNow.Add(time.Minute), 10)
	must(t, err)
	if len(pending) != 2 || pending[0].ID != "a" || pending[0].Email.HTML != "<p>h</p>" {
		t.Fatalf("pending = %+v, want a then b with their content", pending)
	}
	must(t, s.UpdateMailStatus(ctx(t), domain.MailDelivery{ID: "a", Status: domain.MailSent, Attempts: 1}))
	// A late failure report of a racing sender does not undo "sent".
	must(t, s.UpdateMailStatus(ctx(t), domain.MailDelivery{ID: "a", Status: domain.MailPending, Attempts: 2, LastError: "throttled"}))
	pending, err = s.ListPendingMails(ctx(t), testNow.Add(time.Minute), 10)
	must(t, err)
	if len(pending) != 1 || pending[0].ID != "b" {
		t.Fatalf("pending after sending a = %+v", pending)
	}
}

func TestInvitationsExpiringAndDeleted(t *testing.T) {
	s := storeWithOpenInvitation(t)
	expiry := testNow.Add(14 * 24 * time.Hour)
	invs, err := s.ListInvitationsExpiringBetween(ctx(t), testNow, expiry.Add(time.Second), 10)
	must(t, err)
	if len(invs) != 1 || invs[0].ID != 1 {
		t.Fatalf("expiring = %+v", invs)
	}
	must(t, s.DeleteInvitations(ctx(t), invs))
	mustNotFound(t, func() error { _, err := s.GetInvitation(ctx(t), 1); return err }())
	open, err := s.ListOpenInvitationsOfRole(ctx(t), 1)
	must(t, err)
	if len(open) != 0 {
		t.Fatalf("role still lists %d invitations", len(open))
	}
	// An accepted invitation is not in the expiry index.
	s2 := acceptedStore(t)
	invs, err = s2.ListInvitationsExpiringBetween(ctx(t), testNow, expiry.Add(time.Second), 10)
	must(t, err)
	if len(invs) != 0 {
		t.Fatalf("accepted invitation listed for cleanup: %+v", invs)
	}
}

func TestUpdateUserRoleByID(t *testing.T) {
	s := acceptedStore(t)
	ur, err := s.GetUserRoleByID(ctx(t), 101)
	must(t, err)
	if ur.UserID != 10 || ur.RoleID != 2 {
		t.Fatalf("membership 101 = %+v", ur)
	}
	end := testNow.AddDate(1, 0, 0)
	ur.EndDate = &end
	must(t, s.UpdateUserRole(ctx(t), ur, []domain.AuditEntry{{ID: 5000, UserID: 10, RoleID: 2, Action: domain.AuditUpdate, CreatedAt: testNow}}, nil))
	mustVersionConflict(t, s.UpdateUserRole(ctx(t), ur, nil, nil))
	// The expiry index follows the new end date.
	urs, err := s.ListUserRolesEndingBetween(ctx(t), end.Add(-time.Hour), end.Add(time.Hour), 10)
	must(t, err)
	if len(urs) != 1 || urs[0].ID != 101 {
		t.Fatalf("by new end date: %+v", urs)
	}
	old := testNow.AddDate(0, 6, 0)
	urs, err = s.ListUserRolesEndingBetween(ctx(t), old.Add(-time.Hour), old.Add(time.Hour), 10)
	must(t, err)
	if len(urs) != 1 || urs[0].ID != 100 {
		t.Fatalf("by old end date: %+v, want only 100", urs)
	}
	mustNotFound(t, func() error { _, err := s.GetUserRoleByID(ctx(t), 999); return err }())
}

// A removal that keeps its user (KeepUser) commits only while the user is
// at the version read, and moves that version on: a second removal that
// read the user before the first one committed changes nothing and
// answers a version conflict, so that it decides again whether the user's
// last membership goes.
func TestApplyRemovalKeepingTheUserHoldsOnlyAtTheVersionRead(t *testing.T) {
	s := acceptedStore(t)
	u, err := s.GetUser(ctx(t), 10)
	must(t, err)
	first, _ := s.GetUserRole(ctx(t), 10, 1)
	second, _ := s.GetUserRole(ctx(t), 10, 2)
	must(t, s.ApplyRemoval(ctx(t), domain.Removal{UserRoles: []domain.UserRole{first}, KeepUser: &u}))
	kept, err := s.GetUser(ctx(t), 10)
	must(t, err)
	if kept.Version != u.Version+1 {
		t.Fatalf("user version after a removal keeping it = %d, want %d", kept.Version, u.Version+1)
	}
	err = s.ApplyRemoval(ctx(t), domain.Removal{UserRoles: []domain.UserRole{second}, KeepUser: &u,
		Deliveries: []domain.Delivery{{ID: "rm-stale", SPID: "sp-1", Kind: domain.DeliverMemberRemove, UserID: 10, RoleID: 2}}})
	if !errors.Is(err, domain.ErrVersionConflict) {
		t.Fatalf("removal keeping a user read before another removal: %v, want a version conflict", err)
	}
	if _, err := s.GetUserRole(ctx(t), 10, 2); err != nil {
		t.Fatalf("membership after the refused removal: %v, want it kept", err)
	}
	mustNotFound(t, func() error { _, err := s.GetDelivery(ctx(t), "rm-stale"); return err }())
	// Read again, the last membership goes with the user.
	must(t, s.ApplyRemoval(ctx(t), domain.Removal{UserRoles: []domain.UserRole{second}, DeleteUser: &kept}))
	mustNotFound(t, func() error { _, err := s.GetUser(ctx(t), 10); return err }())
}
