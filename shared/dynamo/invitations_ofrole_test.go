package dynamo_test

import (
	"fmt"
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

// TestOpenInvitationsOfRoleCostTheSameAfterAYear: a role's open
// invitations are read without reading the invitations of its history
// (accepted ones), so 250 accepted invitations add no BatchGetItem.
func TestOpenInvitationsOfRoleCostTheSameAfterAYear(t *testing.T) {
	s, requests := countingStore(t)
	must(t, s.CreateRole(ctx(t), role(1, "One"), nil))
	var invs []domain.Invitation
	for i := range int64(250) {
		inv := invitation(100+i, fmt.Sprint("digest-old-", i), 1)
		inv.Status = domain.InvitationAccepted
		invs = append(invs, inv)
	}
	invs = append(invs, invitation(1, "digest-open", 1))
	for start := 0; start < len(invs); start += 25 {
		must(t, s.CreateInvitations(ctx(t), invs[start:min(start+25, len(invs))]))
	}
	before := requests.Load()
	open, err := s.ListOpenInvitationsOfRole(ctx(t), 1)
	must(t, err)
	n := requests.Load() - before
	if len(open) != 1 || open[0].ID != 1 {
		t.Errorf("open invitations = %v, want invitation 1", open)
	}
	if n > 2 {
		t.Errorf("%d requests, want 2 (the links, then the open invitation)", n)
	}
}
