package dynamo_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/edu-invite/invite/shared/domain"
)

func TestListAllRolesAndCountMembers(t *testing.T) {
	s := newStore(t)
	other := role(3, "alpha")
	other.OrganizationGUID = ""
	for _, r := range []domain.Role{role(1, "Zeta", "wiki"), role(2, "beta", "wiki"), other} {
		must(t, s.CreateRole(ctx(t), r, nil))
	}
	roles, err := s.ListAllRoles(ctx(t))
	must(t, err)
	if got := roleNames(roles); got != "3:alpha 2:beta 1:Zeta " {
		t.Errorf("all roles = %q, want by normalized name, with and without an organization", got)
	}

	// Three members of role 1, one of role 2: the count is per role.
	must(t, s.CreateInvitations(ctx(t), []domain.Invitation{invitation(1, "digest-1", 1, 2)}))
	must(t, s.SaveAcceptance(ctx(t), acceptance())) // user 10 joins roles 1 and 2
	for _, uid := range []int64{11, 12} {
		inv := invitation(uid, "digest-"+id(uid), 1)
		must(t, s.CreateInvitations(ctx(t), []domain.Invitation{inv}))
		inv.Version, inv.Status = 1, domain.InvitationAccepted
		must(t, s.SaveAcceptance(ctx(t), domain.Acceptance{Invitation: inv, User: user(uid, "sub-"+id(uid)), NewUser: true,
			NewUserRoles: []domain.UserRole{membership(100+uid, uid, 1)}}))
	}
	for _, tt := range []struct {
		roleID int64
		want   int64
	}{{1, 3}, {2, 1}, {3, 0}, {99, 0}} {
		n, err := s.CountUserRolesOfRole(ctx(t), tt.roleID)
		must(t, err)
		if n != tt.want {
			t.Errorf("role %d has %d members, want %d", tt.roleID, n, tt.want)
		}
	}
}

func TestInvitationsOfInviterAndReissue(t *testing.T) {
	s := newStore(t)
	must(t, s.CreateRole(ctx(t), role(1, "One"), nil))
	byOther := invitation(2, "digest-2", 1)
	byOther.InviterUserID = 8
	byToken := invitation(4, "digest-4", 1)
	byToken.InviterUserID, byToken.RemoteAPIUser = 0, "ci (API token 5)"
	must(t, s.CreateInvitations(ctx(t), []domain.Invitation{invitation(3, "digest-3", 1), byOther, invitation(1, "digest-1", 1), byToken}))

	mine, err := s.ListInvitationsOfInviter(ctx(t), 7)
	must(t, err)
	if len(mine) != 2 || mine[0].ID != 1 || mine[1].ID != 3 {
		t.Fatalf("invitations of inviter 7 = %+v, want 1 and 3", mine)
	}
	// A program's invitations (invitations/mine of an API token).
	ofToken, err := s.ListInvitationsOfRemoteAPIUser(ctx(t), "ci (API token 5)")
	must(t, err)
	if len(ofToken) != 1 || ofToken[0].ID != 4 {
		t.Fatalf("invitations of the token = %+v, want 4", ofToken)
	}
	if other, err := s.ListInvitationsOfRemoteAPIUser(ctx(t), "ci (API token 6)"); err != nil || len(other) != 0 {
		t.Fatalf("invitations of another token = %+v, %v", other, err)
	}

	// Reissue: a new digest and expiry; the old digest no longer finds it.
	inv, err := s.GetInvitation(ctx(t), 3)
	must(t, err)
	inv.HashDigest = "digest-3-new"
	inv.ExpiryDate = testNow.AddDate(0, 1, 0)
	must(t, s.ReissueInvitation(ctx(t), inv))
	got, err := s.GetInvitationByHashDigest(ctx(t), "digest-3-new")
	must(t, err)
	if got.ID != 3 || got.Version != 2 || !got.ExpiryDate.Equal(inv.ExpiryDate) || got.Status != domain.InvitationOpen {
		t.Errorf("reissued invitation = %+v", got)
	}
	mustNotFound(t, func() error { _, err := s.GetInvitationByHashDigest(ctx(t), "digest-3"); return err }())
	open, err := s.ListOpenInvitationsOfRole(ctx(t), 1)
	must(t, err)
	if len(open) != 4 {
		t.Errorf("role 1 has %d open invitations after the reissue, want 4", len(open))
	}

	// A stale version is refused; an accepted invitation is gone.
	mustVersionConflict(t, s.ReissueInvitation(ctx(t), inv))
	acc, err := s.GetInvitation(ctx(t), 1)
	must(t, err)
	acc.Status = domain.InvitationAccepted
	must(t, s.SaveAcceptance(ctx(t), domain.Acceptance{Invitation: acc, User: user(10, "sub-10"), NewUser: true}))
	acc.Status, acc.HashDigest = domain.InvitationOpen, "digest-1-new"
	mustKind(t, s.ReissueInvitation(ctx(t), acc), domain.KindConflict)
	if stored, _ := s.GetInvitation(ctx(t), 1); stored.Status != domain.InvitationAccepted || stored.HashDigest != "digest-1" {
		t.Errorf("accepted invitation changed by a refused reissue: %+v", stored)
	}
}

func TestListOpenInvitationsPages(t *testing.T) {
	s := newStore(t)
	must(t, s.CreateRole(ctx(t), role(1, "One"), nil))
	var invs []domain.Invitation
	for i := int64(1); i <= 12; i++ {
		inv := invitation(i, "digest-"+id(i), 1)
		inv.CreatedAt = testNow.Add(time.Duration(i%3) * time.Minute) // ties in time: the id decides
		invs = append(invs, inv)
	}
	must(t, s.CreateInvitations(ctx(t), invs))
	// Accepting 5 and deleting 6 takes them out of the list.
	acc := invs[4]
	acc.Version, acc.Status = 1, domain.InvitationAccepted
	must(t, s.SaveAcceptance(ctx(t), domain.Acceptance{Invitation: acc, User: user(10, "sub-10"), NewUser: true}))
	del := invs[5]
	del.Version = 1
	must(t, s.DeleteInvitations(ctx(t), []domain.Invitation{del}))

	// Creation order: minute 0: 3 6 9 12; minute 1: 1 4 7 10; minute 2: 2 5 8 11.
	tests := []struct {
		offset, limit int
		descending    bool
		want          []int64
	}{
		{0, 4, false, []int64{3, 9, 12, 1}},
		{4, 4, false, []int64{4, 7, 10, 2}},
		{8, 4, false, []int64{8, 11}},
		{10, 4, false, nil},
		{0, 3, true, []int64{11, 8, 2}},
		{0, 0, false, nil},
	}
	for _, tt := range tests {
		page, total, err := s.ListOpenInvitations(ctx(t), tt.offset, tt.limit, tt.descending)
		must(t, err)
		var ids []int64
		for _, inv := range page {
			ids = append(ids, inv.ID)
		}
		if total != 10 || fmt.Sprint(ids) != fmt.Sprint(tt.want) {
			t.Errorf("offset %d limit %d desc %v: %v of %d, want %v of 10", tt.offset, tt.limit, tt.descending, ids, total, tt.want)
		}
	}
}
