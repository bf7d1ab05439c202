package dynamo_test

import (
	"fmt"
	"testing"

	"github.com/edu-invite/invite/shared/domain"
	"github.com/edu-invite/invite/shared/dynamo"
)

// storeWithMembers has role 1 with members 1..n (user i holds membership i)
// and a new user per member, written through acceptances.
func storeWithMembers(t *testing.T, n int) *dynamo.Store {
	t.Helper()
	s := newStore(t)
	must(t, s.CreateRole(ctx(t), role(1, "One"), nil))
	for i := int64(1); i <= int64(n); i++ {
		inv := invitation(i, fmt.Sprint("digest-", i), 1)
		must(t, s.CreateInvitations(ctx(t), []domain.Invitation{inv}))
		inv.Version, inv.Status = 1, domain.InvitationAccepted
		must(t, s.SaveAcceptance(ctx(t), domain.Acceptance{
			Invitation:   inv,
			User:         user(i, fmt.Sprint("sub-", i)),
			NewUser:      true,
			NewUserRoles: []domain.UserRole{membership(i, i, 1)},
		}))
	}
	return s
}

func TestUpdateUser(t *testing.T) {
	s := storeWithMembers(t, 1)
	u, err := s.GetUserBySub(ctx(t), "sub-1")
	must(t, err)

	changed := u
	changed.Email = "new@example.org"
	must(t, s.UpdateUser(ctx(t), changed, []domain.Delivery{{ID: "d-update", SPID: "sp-1", Kind: domain.DeliverUserUpdate, UserID: 1}}))
	got, err := s.GetUser(ctx(t), 1)
	must(t, err)
	if got.Email != "new@example.org" || got.Version != 2 {
		t.Errorf("user %+v", got)
	}
	if _, err := s.GetDelivery(ctx(t), "d-update"); err != nil {
		t.Errorf("delivery: %v", err)
	}

	tests := []struct {
		name   string
		change func(u *domain.User)
		kind   domain.ErrorKind
	}{
		{"stale version", func(u *domain.User) {}, domain.KindConflict},
		{"changed sub", func(u *domain.User) { u.Version = 2; u.Sub = "other" }, domain.KindInvalid},
		{"unknown user", func(u *domain.User) { u.ID = 99 }, domain.KindNotFound},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			stale := u // version 1
			stale.Email = "lost@example.org"
			tt.change(&stale)
			mustKind(t, s.UpdateUser(ctx(t), stale, nil), tt.kind)
			if got, _ := s.GetUser(ctx(t), 1); got.Email != "new@example.org" {
				t.Errorf("refused update written: %+v", got)
			}
		})
	}
	mustNotFound(t, func() error { _, err := s.GetUserBySub(ctx(t), "nobody"); return err }())
}

func TestListUserRolesOfRolePages(t *testing.T) {
	s := storeWithMembers(t, 7)
	tests := []struct {
		limit int
		pages []int
	}{
		{limit: 3, pages: []int{3, 3, 1}},
		{limit: 7, pages: []int{7}},
		{limit: 1, pages: []int{1, 1, 1, 1, 1, 1, 1}},
		{limit: 0, pages: []int{7}}, // default page size
	}
	for _, tt := range tests {
		t.Run(fmt.Sprint("limit ", tt.limit), func(t *testing.T) {
			seen := map[int64]bool{}
			token := ""
			for i, want := range tt.pages {
				page, next, err := s.ListUserRolesOfRole(ctx(t), 1, token, tt.limit)
				must(t, err)
				if len(page) != want {
					t.Fatalf("page %d has %d items, want %d", i, len(page), want)
				}
				for _, ur := range page {
					if seen[ur.UserID] || ur.RoleID != 1 {
						t.Fatalf("page %d repeats or strays: %+v", i, ur)
					}
					seen[ur.UserID] = true
				}
				if last := i == len(tt.pages)-1; last != (next == "") {
					t.Fatalf("page %d: next token %q", i, next)
				}
				token = next
			}
			if len(seen) != 7 {
				t.Errorf("saw %d members", len(seen))
			}
		})
	}

	_, next, err := s.ListUserRolesOfRole(ctx(t), 1, "", 2)
	must(t, err)
	for _, bad := range []string{"garbage!", "e30"} {
		_, _, err := s.ListUserRolesOfRole(ctx(t), 1, bad, 2)
		mustKind(t, err, domain.KindInvalid)
	}
	_, _, err = s.ListUserRolesOfRole(ctx(t), 2, next, 2)
	mustKind(t, err, domain.KindInvalid) // a token of role 1 does not page role 2
}

func TestDeleteUserRoles(t *testing.T) {
	s := storeWithMembers(t, 3)
	ur1, err := s.GetUserRole(ctx(t), 1, 1)
	must(t, err)
	ur2, err := s.GetUserRole(ctx(t), 2, 1)
	must(t, err)

	stale := ur2
	stale.Version = 7
	audit := []domain.AuditEntry{{ID: 1, UserID: 1, RoleID: 1, Action: domain.AuditDelete}}
	deliveries := []domain.Delivery{{ID: "d-remove", SPID: "sp-1", Kind: domain.DeliverMemberRemove, UserID: 1, RoleID: 1}}
	mustVersionConflict(t, s.DeleteUserRoles(ctx(t), []domain.UserRole{ur1, stale}, audit, deliveries))
	if _, err := s.GetUserRole(ctx(t), 1, 1); err != nil {
		t.Fatalf("refused delete removed a membership: %v", err)
	}
	mustNotFound(t, func() error { _, err := s.GetDelivery(ctx(t), "d-remove"); return err }())

	must(t, s.DeleteUserRoles(ctx(t), []domain.UserRole{ur1, ur2}, audit, deliveries))
	mustNotFound(t, func() error { _, err := s.GetUserRole(ctx(t), 1, 1); return err }())
	page, _, err := s.ListUserRolesOfRole(ctx(t), 1, "", 10)
	must(t, err)
	if len(page) != 1 || page[0].UserID != 3 {
		t.Errorf("left members %+v", page)
	}
	entries, err := s.ListAuditEntriesOfRole(ctx(t), 1)
	must(t, err)
	if len(entries) != 1 || entries[0].Action != domain.AuditDelete {
		t.Errorf("audit %+v", entries)
	}
	if _, err := s.GetDelivery(ctx(t), "d-remove"); err != nil {
		t.Errorf("delivery: %v", err)
	}
	mustNotFound(t, s.DeleteUserRoles(ctx(t), []domain.UserRole{ur1}, nil, nil))
}
