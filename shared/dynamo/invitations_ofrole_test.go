package dynamo_test

import (
	"testing"

	"github.com/edu-invite/invite/shared/domain"
)

// TestListInvitationsOfRole keeps accepted invitations, which the open
// listing drops, and leaves out withdrawn ones and other roles'.
func TestListInvitationsOfRole(t *testing.T) {
	s := newStore(t)
	must(t, s.CreateRole(ctx(t), role(1, "One"), nil))
	must(t, s.CreateRole(ctx(t), role(2, "Two"), nil))
	must(t, s.CreateInvitations(ctx(t), []domain.Invitation{
		invitation(1, "digest-1", 1), invitation(2, "digest-2", 1, 2), invitation(3, "digest-3", 2), invitation(4, "digest-4", 1),
	}))
	accepted := invitation(1, "digest-1", 1)
	accepted.Version, accepted.Status = 1, domain.InvitationAccepted
	must(t, s.SaveAcceptance(ctx(t), domain.Acceptance{Invitation: accepted, User: user(10, "sub-10"), NewUser: true}))
	withdrawn, err := s.GetInvitation(ctx(t), 4)
	must(t, err)
	must(t, s.DeleteInvitations(ctx(t), []domain.Invitation{withdrawn}))

	all, err := s.ListInvitationsOfRole(ctx(t), 1)
	must(t, err)
	got := map[int64]domain.InvitationStatus{}
	for _, inv := range all {
		got[inv.ID] = inv.Status
	}
	if len(got) != 2 || got[1] != domain.InvitationAccepted || got[2] != domain.InvitationOpen {
		t.Errorf("invitations of role 1 = %v, want 1 accepted and 2 open", got)
	}
	none, err := s.ListInvitationsOfRole(ctx(t), 3)
	must(t, err)
	if len(none) != 0 {
		t.Errorf("invitations of a role without any = %v", none)
	}
}
