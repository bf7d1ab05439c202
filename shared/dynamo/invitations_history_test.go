package dynamo_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/edu-invite/invite/shared/domain"
	"github.com/edu-invite/invite/shared/dynamo"
)

// acceptedInvitations writes n invitations of role 1 that were accepted
// (ids from first), 25 to a request.
func acceptedInvitations(t *testing.T, s *dynamo.Store, first int64, n int) {
	t.Helper()
	var invs []domain.Invitation
	for i := range int64(n) {
		inv := invitation(first+i, fmt.Sprint("digest-old-", first+i), 1)
		inv.Status = domain.InvitationAccepted
		invs = append(invs, inv)
	}
	for start := 0; start < len(invs); start += 25 {
		must(t, s.CreateInvitations(ctx(t), invs[start:min(start+25, len(invs))]))
	}
}

// TestRolePageCostsTheSameAfterAYear: a role's page (RoleView) and its
// open invitations read the same requests and items with 400 accepted
// invitations in its history as with 130 (the page reads the head of the
// role's index in requests of at most 125 items and stops after the
// newest RoleViewHistory of the history); the page shows the open ones
// and those newest, newest first.
func TestRolePageCostsTheSameAfterAYear(t *testing.T) {
	s, counter, _ := itemCountingStore(t)
	must(t, s.CreateRole(ctx(t), role(1, "One"), nil))
	must(t, s.CreateInvitations(ctx(t), []domain.Invitation{invitation(1, "digest-open-1", 1), invitation(2, "digest-open-2", 1)}))
	acceptedInvitations(t, s, 1000, 130)
	noSPs := func(domain.Role) []string { return nil }
	type cost struct{ requests, items int64 }
	measure := func() (cost, cost, domain.RoleView) {
		r0, i0 := counter.snapshot()
		v, err := s.RoleView(ctx(t), 1, "", 10, noSPs)
		must(t, err)
		r1, i1 := counter.snapshot()
		open, err := s.ListOpenInvitationsOfRole(ctx(t), 1)
		must(t, err)
		if len(open) != 2 {
			t.Errorf("open invitations: %d, want 2", len(open))
		}
		r2, i2 := counter.snapshot()
		return cost{r1 - r0, i1 - i0}, cost{r2 - r1, i2 - i1}, v
	}
	pageBefore, openBefore, _ := measure()
	acceptedInvitations(t, s, 2000, 270) // newer than the first 130
	pageAfter, openAfter, v := measure()
	if pageAfter != pageBefore || openAfter != openBefore {
		t.Errorf("130 accepted: page %+v, open %+v; 400 accepted: page %+v, open %+v", pageBefore, openBefore, pageAfter, openAfter)
	}
	var ids []int64
	for _, inv := range v.Invitations {
		ids = append(ids, inv.ID)
	}
	want := []int64{}
	for id := int64(2269); id > 2269-dynamo.RoleViewHistory; id-- {
		want = append(want, id)
	}
	want = append(want, 2, 1)
	if !slices.Equal(ids, want) {
		t.Errorf("the page's invitations: %v, want %v", ids, want)
	}
	all, err := s.ListInvitationsOfRole(ctx(t), 1)
	must(t, err)
	// A list of the role's invitations: the open ones and the newest of
	// the history, as the page.
	if len(all) != 2+dynamo.RoleViewHistory || all[0].ID != 1 || all[len(all)-1].ID != 2269 {
		t.Errorf("listed invitations of the role: %d, want the 2 open and the newest %d", len(all), dynamo.RoleViewHistory)
	}
	if pageAfter.requests > 3 || pageAfter.items > 1+2+125+10+1+4+2 {
		t.Errorf("role page: %+v", pageAfter)
	}
	t.Logf("role page: %+v; open invitations: %+v", pageAfter, openAfter)
}

// TestIndexRepairMovesHistoryLinks: links of accepted invitations that an
// older version left under the open keys are moved by the index repair, so
// that the open invitations are read without them again.
func TestIndexRepairMovesHistoryLinks(t *testing.T) {
	s, counter, client := itemCountingStore(t)
	must(t, s.CreateRole(ctx(t), role(1, "One"), nil))
	must(t, s.CreateInvitations(ctx(t), []domain.Invitation{invitation(1, "digest-open-1", 1)}))
	acceptedInvitations(t, s, 100, 40)
	// Age the links: the open keys, as older versions wrote them.
	for i := range int64(40) {
		setRawStrings(t, client, fmt.Sprint("INV#", 100+i), "ROLE#1", fmt.Sprint("INV#", 100+i), "gsi1sk", "gsi4sk")
	}
	linksRead := func() int64 {
		_, i0 := counter.snapshot()
		open, err := s.ListOpenInvitationsOfRole(ctx(t), 1)
		must(t, err)
		if len(open) != 1 {
			t.Fatalf("open invitations: %d", len(open))
		}
		_, i1 := counter.snapshot()
		return i1 - i0
	}
	if n := linksRead(); n < 41 {
		t.Fatalf("aged table: %d items read, want the 41 links and more", n)
	}
	repairAll(t, s, 10)
	if n := linksRead(); n != 2 {
		t.Errorf("after the repair: %d items read, want the open link and its invitation", n)
	}
	all, err := s.ListInvitationsOfRole(ctx(t), 1)
	must(t, err)
	if len(all) != 1+dynamo.RoleViewHistory || all[len(all)-1].ID != 139 {
		t.Errorf("listed invitations of the role: %d, want the open one and the newest %d", len(all), dynamo.RoleViewHistory)
	}
}
