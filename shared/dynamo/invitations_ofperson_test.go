package dynamo_test

import (
	"slices"
	"testing"

	"github.com/edu-invite/invite/shared/domain"
	"github.com/edu-invite/invite/shared/dynamo"
)

// personInvitationIDs are the ids ListInvitationsOfPerson answers for email.
func personInvitationIDs(t *testing.T, s *dynamo.Store, email string) []int64 {
	t.Helper()
	invs, err := s.ListInvitationsOfPerson(ctx(t), email)
	must(t, err)
	ids := []int64{}
	for _, inv := range invs {
		ids = append(ids, inv.ID)
	}
	return ids
}

// TestListInvitationsOfPersonCostsOnePage: a person's invitations are read
// by their address (any case), newest first, each once whatever its
// number of roles, the open ones whole; an accepted invitation behind
// hundreds of newer ones in its role is found, and the read costs the same
// with 400 newer invitations of others as with 30.
func TestListInvitationsOfPersonCostsOnePage(t *testing.T) {
	s, counter, _ := itemCountingStore(t)
	must(t, s.CreateRole(ctx(t), role(1, "One"), nil))
	must(t, s.CreateRole(ctx(t), role(2, "Two"), nil))
	old := invitation(10, "digest-pia-old", 1)
	old.Email, old.Status = "pia@example.org", domain.InvitationAccepted
	open := invitation(20, "digest-pia-open", 1, 2)
	open.Email, open.LinkSecret = "Pia@Example.org", "secret-20"
	must(t, s.CreateInvitations(ctx(t), []domain.Invitation{old, open, invitation(30, "digest-other", 2)}))
	acceptedInvitations(t, s, 100, 30)
	cost := func() (int64, int64) {
		r0, i0 := counter.snapshot()
		if got, want := personInvitationIDs(t, s, " PIA@example.org "), []int64{20, 10}; !slices.Equal(got, want) {
			t.Errorf("invitations of pia: %v, want %v", got, want)
		}
		r1, i1 := counter.snapshot()
		return r1 - r0, i1 - i0
	}
	requests, items := cost()
	acceptedInvitations(t, s, 1000, 370)
	if r, i := cost(); r != requests || i != items {
		t.Errorf("30 newer invitations: %d requests, %d items; 400: %d, %d", requests, items, r, i)
	}
	if requests != 2 || items != 3+1 {
		t.Errorf("a person's invitations: %d requests, %d items; want one Query of 3 links and the open invitation", requests, items)
	}
	invs, err := s.ListInvitationsOfPerson(ctx(t), "pia@example.org")
	must(t, err)
	if invs[0].LinkSecret != "secret-20" || !slices.Equal(invs[0].RoleIDs, []int64{1, 2}) || invs[1].Status != domain.InvitationAccepted {
		t.Errorf("invitations of pia: %+v", invs)
	}
	if got := personInvitationIDs(t, s, "nobody@example.org"); len(got) != 0 {
		t.Errorf("invitations of nobody: %v", got)
	}
}

// TestIndexRepairGivesInvitationLinksTheirPersonKey: links an older version
// wrote without the person key are not found by the person until the index
// repair gives them the key (the one a write of the invitation gives).
func TestIndexRepairGivesInvitationLinksTheirPersonKey(t *testing.T) {
	s, _, client := itemCountingStore(t)
	must(t, s.CreateRole(ctx(t), role(1, "One"), nil))
	must(t, s.CreateRole(ctx(t), role(2, "Two"), nil))
	accepted := invitation(10, "digest-pia-old", 1, 2)
	accepted.Email, accepted.Status = "pia@example.org", domain.InvitationAccepted
	open := invitation(20, "digest-pia-open", 2)
	open.Email = "pia@example.org"
	must(t, s.CreateInvitations(ctx(t), []domain.Invitation{accepted, open}))
	// As an older version wrote them: no person key.
	for _, link := range [][2]string{{"INV#10", "ROLE#1"}, {"INV#10", "ROLE#2"}, {"INV#20", "ROLE#2"}} {
		removeRawAttributes(t, client, link[0], link[1], "gsi2pk", "gsi2sk")
	}
	if got := personInvitationIDs(t, s, "pia@example.org"); len(got) != 0 {
		t.Fatalf("before the repair: %v, want none (the links have no person key)", got)
	}
	repairAll(t, s, 1)
	if got, want := personInvitationIDs(t, s, "pia@example.org"), []int64{20, 10}; !slices.Equal(got, want) {
		t.Errorf("after the repair: %v, want %v", got, want)
	}
	// A link under another address (written meanwhile) is moved to its own.
	setRawStrings(t, client, "INV#10", "ROLE#1", "INVPERSON#someone@example.org", "gsi2pk")
	if got := personInvitationIDs(t, s, "someone@example.org"); len(got) != 1 {
		t.Fatalf("under the wrong address: %v", got)
	}
	repairAll(t, s, 1)
	if got := personInvitationIDs(t, s, "someone@example.org"); len(got) != 0 {
		t.Errorf("after the second repair, under the wrong address: %v", got)
	}
}
