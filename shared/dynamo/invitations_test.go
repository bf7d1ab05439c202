package dynamo_test

import (
	"testing"

	"github.com/edu-invite/invite/shared/domain"
)

func TestInvitationLookups(t *testing.T) {
	s := newStore(t)
	must(t, s.CreateRole(ctx(t), role(1, "One"), nil))
	must(t, s.CreateRole(ctx(t), role(2, "Two"), nil))
	byAPI := invitation(3, "digest-3", 2)
	byAPI.InviterUserID = 0
	must(t, s.CreateInvitations(ctx(t), []domain.Invitation{
		invitation(1, "digest-1", 1, 2), invitation(2, "digest-2", 1, 1), byAPI,
	}))

	inv, err := s.GetInvitationByHashDigest(ctx(t), "digest-2")
	must(t, err)
	if inv.ID != 2 || inv.Version != 1 || inv.Status != domain.InvitationOpen || !inv.ExpiryDate.Equal(testNow.AddDate(0, 0, 14)) {
		t.Errorf("invitation %+v", inv)
	}
	mustNotFound(t, func() error { _, err := s.GetInvitationByHashDigest(ctx(t), "unknown"); return err }())
	mustNotFound(t, func() error { _, err := s.GetInvitationByHashDigest(ctx(t), ""); return err }())
	mustNotFound(t, func() error { _, err := s.GetInvitation(ctx(t), 9); return err }())

	// Invitation 1 is accepted: only 2 stays open for role 1.
	accepted := invitation(1, "digest-1", 1, 2)
	accepted.Version, accepted.Status = 1, domain.InvitationAccepted
	must(t, s.SaveAcceptance(ctx(t), domain.Acceptance{Invitation: accepted, User: user(10, "sub-10"), NewUser: true}))

	tests := []struct {
		roleID int64
		want   []int64
	}{
		{1, []int64{2}},
		{2, []int64{3}},
		{3, nil},
	}
	for _, tt := range tests {
		open, err := s.ListOpenInvitationsOfRole(ctx(t), tt.roleID)
		must(t, err)
		var ids []int64
		for _, inv := range open {
			ids = append(ids, inv.ID)
		}
		if len(ids) != len(tt.want) || (len(ids) > 0 && ids[0] != tt.want[0]) {
			t.Errorf("role %d: open invitations %v, want %v", tt.roleID, ids, tt.want)
		}
	}

	err = s.CreateInvitations(ctx(t), []domain.Invitation{invitation(2, "digest-other", 1)})
	mustKind(t, err, domain.KindConflict)
	if inv, _ := s.GetInvitation(ctx(t), 2); inv.HashDigest != "digest-2" {
		t.Errorf("existing invitation overwritten")
	}
}
