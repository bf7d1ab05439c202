package dynamo_test

import (
	"fmt"
	"testing"

	"github.com/edu-invite/invite/shared/domain"
	"github.com/edu-invite/invite/shared/dynamo"
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

// TestInvitationsOfRoleCostTheSameAfterAYear: a list of a role's
// invitations is its open ones and the newest RoleViewHistory of its
// history, whole from the links' copies: with 250 accepted invitations it
// costs what it costs with 30 (three requests), and shows the newest.
func TestInvitationsOfRoleCostTheSameAfterAYear(t *testing.T) {
	s, requests := countingStore(t)
	must(t, s.CreateRole(ctx(t), role(1, "One"), nil))
	accepted := func(from, n int64) {
		var invs []domain.Invitation
		for i := range n {
			inv := invitation(from+i, fmt.Sprint("digest-old-", from+i), 1)
			inv.Status = domain.InvitationAccepted
			invs = append(invs, inv)
		}
		for start := 0; start < len(invs); start += 25 {
			must(t, s.CreateInvitations(ctx(t), invs[start:min(start+25, len(invs))]))
		}
	}
	must(t, s.CreateInvitations(ctx(t), []domain.Invitation{invitation(1, "digest-open-1", 1), invitation(2, "digest-open-2", 1)}))
	list := func(label string, newest int64) int64 {
		t.Helper()
		before := requests.Load()
		invs, err := s.ListInvitationsOfRole(ctx(t), 1)
		must(t, err)
		n := requests.Load() - before
		var open, history []int64
		for _, inv := range invs {
			if inv.Status == domain.InvitationOpen {
				open = append(open, inv.ID)
			} else if inv.Status == domain.InvitationAccepted && inv.Email != "" {
				history = append(history, inv.ID)
			}
		}
		want := dynamo.RoleViewHistory
		if len(open) != 2 || open[0] != 1 || open[1] != 2 || len(history) != want || history[0] != newest-int64(want)+1 || history[want-1] != newest {
			t.Errorf("%s: open %v, history %v; want 1 and 2 open and the newest %d accepted up to %d", label, open, history, want, newest)
		}
		return n
	}
	accepted(100, 30)
	few := list("30 accepted", 129)
	accepted(1000, 220)
	if many := list("250 accepted", 1219); many > few || many > 3 {
		t.Errorf("%d requests with 250 accepted invitations, %d with 30; want at most 3", many, few)
	}
}
