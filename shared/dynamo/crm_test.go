package dynamo_test

import (
	"slices"
	"testing"
	"time"

	"github.com/edu-invite/invite/shared/domain"
)

func crmInvitation(invID int64, org, contact string, roles ...int64) domain.Invitation {
	return domain.Invitation{ID: invID, IntendedAuthority: domain.Guest, Status: domain.InvitationOpen, Email: "a@example.org",
		CreatedAt: testNow, ExpiryDate: testNow.Add(14 * 24 * time.Hour), HashDigest: "digest-" + id(invID),
		CRMOrganisationID: org, CRMContactID: contact, OrganizationGUID: org, RoleIDs: roles}
}

func TestCRMOrganisationsAndContacts(t *testing.T) {
	s := newStore(t)
	_, err := s.GetCRMOrganisation(ctx(t), "org-1")
	mustNotFound(t, err)
	must(t, s.PutCRMOrganisation(ctx(t), domain.CRMOrganisation{OrganisationID: "org-1", Abbrev: "O", Name: "Org one"}))
	must(t, s.PutCRMOrganisation(ctx(t), domain.CRMOrganisation{OrganisationID: "org-1", Abbrev: "O1", Name: "Org one renamed"}))
	o, err := s.GetCRMOrganisation(ctx(t), "org-1")
	if err != nil || o.Name != "Org one renamed" || o.Abbrev != "O1" {
		t.Fatalf("%+v %v", o, err)
	}
	mustKind(t, s.PutCRMOrganisation(ctx(t), domain.CRMOrganisation{OrganisationID: "a#b"}), domain.KindInvalid)

	must(t, s.PutCRMContact(ctx(t), domain.CRMContact{OrganisationID: "org-1", ContactID: "c-2", UserID: 7}))
	must(t, s.PutCRMContact(ctx(t), domain.CRMContact{OrganisationID: "org-1", ContactID: "c-1", UserID: 5}))
	must(t, s.PutCRMContact(ctx(t), domain.CRMContact{OrganisationID: "org-2", ContactID: "c-1", UserID: 5}))
	mustKind(t, s.PutCRMContact(ctx(t), domain.CRMContact{OrganisationID: "org-1", ContactID: "", UserID: 5}), domain.KindInvalid)

	c, err := s.GetCRMContact(ctx(t), "org-1", "c-2")
	if err != nil || c.UserID != 7 {
		t.Fatalf("%+v %v", c, err)
	}
	contacts, err := s.ListCRMContacts(ctx(t), "org-1")
	if err != nil || len(contacts) != 2 || contacts[0].ContactID != "c-1" || contacts[1].ContactID != "c-2" {
		t.Fatalf("contacts of org-1: %+v %v", contacts, err)
	}
	byContact, err := s.ListCRMContactsByContactID(ctx(t), "c-1")
	if err != nil || len(byContact) != 2 || byContact[0].OrganisationID != "org-1" || byContact[1].OrganisationID != "org-2" {
		t.Fatalf("links of c-1: %+v %v", byContact, err)
	}
	must(t, s.DeleteCRMContact(ctx(t), "org-1", "c-1"))
	_, err = s.GetCRMContact(ctx(t), "org-1", "c-1")
	mustNotFound(t, err)
	if contacts, _ := s.ListCRMContacts(ctx(t), "org-1"); len(contacts) != 1 {
		t.Errorf("contacts after delete: %+v", contacts)
	}
}

func TestCRMInvitations(t *testing.T) {
	s := newStore(t)
	must(t, s.CreateCRMInvitation(ctx(t), crmInvitation(11, "org-1", "c-1", 3, 4)))
	must(t, s.CreateCRMInvitation(ctx(t), crmInvitation(12, "org-1", "c-2", 3)))
	must(t, s.CreateCRMInvitation(ctx(t), crmInvitation(13, "org-1", "c-1", 4)))
	mustKind(t, s.CreateCRMInvitation(ctx(t), crmInvitation(11, "org-1", "c-1", 3)), domain.KindConflict)
	mustKind(t, s.CreateCRMInvitation(ctx(t), crmInvitation(14, "org-1", "", 3)), domain.KindInvalid)

	ids := func(invs []domain.Invitation) []int64 {
		var out []int64
		for _, inv := range invs {
			out = append(out, inv.ID)
		}
		return out
	}
	of1, err := s.ListCRMInvitations(ctx(t), "org-1", "c-1")
	if err != nil || !slices.Equal(ids(of1), []int64{11, 13}) || of1[0].CRMContactID != "c-1" || of1[0].Version != 1 {
		t.Fatalf("invitations of c-1: %+v %v", of1, err)
	}
	all, _ := s.ListCRMInvitations(ctx(t), "org-1", "")
	if !slices.Equal(ids(all), []int64{11, 12, 13}) {
		t.Fatalf("invitations of org-1: %v", ids(all))
	}
	// The role links are written like those of other invitations.
	open, _ := s.ListOpenInvitationsOfRole(ctx(t), 4)
	if !slices.Equal(ids(open), []int64{11, 13}) {
		t.Fatalf("open invitations of role 4: %v", ids(open))
	}

	renewed := of1[0]
	renewed.HashDigest, renewed.ExpiryDate = "digest-new", testNow.Add(30*24*time.Hour)
	must(t, s.RenewCRMInvitation(ctx(t), renewed))
	mustVersionConflict(t, s.RenewCRMInvitation(ctx(t), renewed))
	got, err := s.GetInvitationByHashDigest(ctx(t), "digest-new")
	if err != nil || got.ID != 11 || got.Version != 2 || !got.ExpiryDate.Equal(renewed.ExpiryDate) {
		t.Fatalf("renewed %+v %v", got, err)
	}
	_, err = s.GetInvitationByHashDigest(ctx(t), "digest-11")
	mustNotFound(t, err)

	mustVersionConflict(t, s.DeleteCRMInvitations(ctx(t), []domain.Invitation{of1[0]})) // stale version
	must(t, s.DeleteCRMInvitations(ctx(t), []domain.Invitation{got, of1[1]}))
	if left, _ := s.ListCRMInvitations(ctx(t), "org-1", ""); !slices.Equal(ids(left), []int64{12}) {
		t.Fatalf("left after delete: %v", ids(left))
	}
	if open, _ := s.ListOpenInvitationsOfRole(ctx(t), 4); len(open) != 0 {
		t.Errorf("role links of deleted invitations remain: %v", ids(open))
	}
	// An invitation deleted by the cleanup job leaves its CRM link, which
	// reads as nothing.
	twelve, _ := s.GetInvitation(ctx(t), 12)
	must(t, s.DeleteInvitations(ctx(t), []domain.Invitation{twelve}))
	if left, err := s.ListCRMInvitations(ctx(t), "org-1", "c-2"); err != nil || len(left) != 0 {
		t.Errorf("after cleanup: %+v %v", left, err)
	}
}

// A CRM invitation without roles (C1 with suppressInvitation for a contact
// none of whose CRM roles is known) holds an empty, non-nil role list. It
// must read back, and the contact's invitations must list and delete: an
// empty list used to be written as L:[], which the embedded table returns
// as a string, and every CRM call for the contact answered 500.
func TestCRMInvitationWithoutRolesReadsBack(t *testing.T) {
	s := newStore(t)
	inv := crmInvitation(21, "org-1", "c-1")
	inv.RoleIDs = []int64{}
	must(t, s.CreateCRMInvitation(ctx(t), inv))
	got, err := s.ListCRMInvitations(ctx(t), "org-1", "c-1")
	if err != nil || len(got) != 1 || got[0].ID != 21 || len(got[0].RoleIDs) != 0 {
		t.Fatalf("invitations of c-1: %+v %v", got, err)
	}
	if all, err := s.ListCRMInvitations(ctx(t), "org-1", ""); err != nil || len(all) != 1 {
		t.Fatalf("invitations of org-1: %+v %v", all, err)
	}
	must(t, s.DeleteCRMInvitations(ctx(t), got))
	if left, err := s.ListCRMInvitations(ctx(t), "org-1", "c-1"); err != nil || len(left) != 0 {
		t.Fatalf("after delete: %+v %v", left, err)
	}
}
