package dynamo_test

import (
	"slices"
	"testing"

	"github.com/edu-invite/invite/shared/domain"
)

// The organisation lookup's reads: contacts and invitation links page on
// from where the last page ended, each once, other organisations' left out;
// contacts and invitations are read by key, absent ones left out.
func TestCRMContactsAndInvitationLinksPage(t *testing.T) {
	s := newStore(t)
	for i, c := range []string{"c-1", "c-2", "c-3", "c-4", "c-5"} {
		must(t, s.PutCRMContact(ctx(t), domain.CRMContact{OrganisationID: "org-1", ContactID: c, UserID: int64(i + 1)}))
	}
	must(t, s.PutCRMContact(ctx(t), domain.CRMContact{OrganisationID: "org-2", ContactID: "c-9", UserID: 9}))
	must(t, s.CreateCRMInvitation(ctx(t), crmInvitation(21, "org-1", "c-2", 3)))
	must(t, s.CreateCRMInvitation(ctx(t), crmInvitation(22, "org-1", "c-1", 3)))
	must(t, s.CreateCRMInvitation(ctx(t), crmInvitation(23, "org-1", "c-2", 3)))
	must(t, s.CreateCRMInvitation(ctx(t), crmInvitation(24, "org-2", "c-1", 3)))

	var contacts []string
	var pages int
	for after, more := "", true; more; pages++ {
		page, m, err := s.ListCRMContactsAfter(ctx(t), "org-1", after, 2)
		if err != nil || len(page) > 2 {
			t.Fatalf("page after %q: %+v %v", after, page, err)
		}
		for _, c := range page {
			contacts = append(contacts, c.ContactID)
		}
		if more = m; len(page) > 0 {
			after = page[len(page)-1].ContactID
		}
	}
	if want := []string{"c-1", "c-2", "c-3", "c-4", "c-5"}; !slices.Equal(contacts, want) || pages != 3 {
		t.Errorf("contacts %v in %d pages, want %v in 3", contacts, pages, want)
	}

	var links []domain.CRMInvitationLink
	for after, more := (domain.CRMInvitationLink{}), true; more; {
		page, m, err := s.ListCRMInvitationLinksAfter(ctx(t), "org-1", after, 2)
		if err != nil || len(page) > 2 {
			t.Fatalf("links after %+v: %+v %v", after, page, err)
		}
		links = append(links, page...)
		if more = m; len(page) > 0 {
			after = page[len(page)-1]
		}
	}
	want := []domain.CRMInvitationLink{{ContactID: "c-1", InvitationID: 22}, {ContactID: "c-2", InvitationID: 21}, {ContactID: "c-2", InvitationID: 23}}
	if !slices.Equal(links, want) {
		t.Errorf("links %+v, want %+v", links, want)
	}

	invs, err := s.GetCRMInvitations(ctx(t), []int64{23, 99, 21})
	if err != nil || len(invs) != 2 || invs[0].ID != 21 || invs[1].ID != 23 || invs[1].CRMContactID != "c-2" {
		t.Errorf("invitations %+v %v, want 21 and 23", invs, err)
	}
	got, err := s.GetCRMContacts(ctx(t), "org-1", []string{"c-3", "c-9"})
	if err != nil || len(got) != 1 || got["c-3"].UserID != 3 {
		t.Errorf("contacts %+v %v, want c-3 only (c-9 is another organisation's)", got, err)
	}
}
