package service_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/edu-invite/invite/shared/config"
	"github.com/edu-invite/invite/shared/domain"
	"github.com/edu-invite/invite/shared/dynamo"
	"github.com/edu-invite/invite/shared/dynamo/dynamotest"
	"github.com/edu-invite/invite/shared/service"
	"github.com/edu-invite/invite/shared/testkit"
)

// TestCRMProfileSearchByOrganisationIsBounded: a CRM profile search by
// organisation reads its members' users in batches (a few requests
// whatever the number of members, not some three per member) and answers
// at most CRMProfilesBound profiles (low here); past it, the first
// profiles with code 51 and a message that says more match, never code 0,
// which a CRM integrator takes for the complete list.
func TestCRMProfileSearchByOrganisationIsBounded(t *testing.T) {
	log := &requestLog{}
	client, table := dynamotest.NewClient(t, log.option)
	reg, err := config.Parse([]byte(testkit.Registry))
	if err != nil {
		t.Fatal(err)
	}
	clock := func() time.Time { return now }
	s := &service.Service{Store: dynamo.New(client, table, clock), Queue: &testkit.RecordingQueue{}, Registry: reg, Clock: clock,
		PublicBaseURL: testkit.PublicBaseURL}
	ctx := context.Background()
	in := wikiRole("Wiki beheer")
	in.OrganizationGUID = "org-crm"
	crmRole, err := s.CreateRole(ctx, root, in)
	if err != nil {
		t.Fatal(err)
	}
	crmRole.CRMRoleID, crmRole.CRMRoleName, crmRole.CRMRoleAbbrevation = "crm-x", "Beheerder", "BVW"
	if err := s.Store.UpdateRole(ctx, crmRole, nil); err != nil {
		t.Fatal(err)
	}
	in = wikiRole("Wiki lezers")
	in.OrganizationGUID = "org-crm"
	plain, err := s.CreateRole(ctx, root, in)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Store.PutCRMOrganisation(ctx, domain.CRMOrganisation{OrganisationID: "org-crm", Name: "CRM Org"}); err != nil {
		t.Fatal(err)
	}
	const members = 9
	seed := domain.Seed{}
	for i := range int64(members) {
		uid := 850_001 + i
		seed.Users = append(seed.Users, domain.User{ID: uid, Sub: fmt.Sprint("sub-crm-", uid), Name: fmt.Sprintf("Crm %02d", i),
			Email: fmt.Sprint("crm", uid, "@example.org"), CreatedAt: now})
		seed.UserRoles = append(seed.UserRoles, domain.UserRole{ID: 860_001 + i, UserID: uid, RoleID: crmRole.ID, Authority: domain.Guest, CreatedAt: now})
		// A role without a CRM role is no authorisation.
		seed.UserRoles = append(seed.UserRoles, domain.UserRole{ID: 870_001 + i, UserID: uid, RoleID: plain.ID, Authority: domain.Guest, CreatedAt: now})
	}
	if err := s.Store.Seed(ctx, seed); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name     string
		bound    int
		code     int
		profiles int
	}{
		{"past the bound", 4, service.CRMProfilesPartialCode, 4},
		{"at the bound", members, 0, members},
		{"the default bound", 0, 0, members},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s.CRMProfilesBound = tc.bound
			before := log.total.Load()
			res, err := s.CRMProfiles(ctx, crmCaller, service.CRMProfileQuery{GUID: "org-crm"})
			if err != nil {
				t.Fatal(err)
			}
			requests := log.total.Load() - before
			if res.Code != tc.code || len(res.Profiles) != tc.profiles {
				t.Fatalf("code %d with %d profiles (%q), want code %d with %d", res.Code, len(res.Profiles), res.Message, tc.code, tc.profiles)
			}
			if partial := tc.code != 0; partial != strings.HasPrefix(res.Message, "More than") {
				t.Errorf("message %q for code %d", res.Message, res.Code)
			}
			for i, p := range res.Profiles {
				if i > 0 && p.User.ID <= res.Profiles[i-1].User.ID {
					t.Errorf("profiles not by user id, each once: %d after %d", p.User.ID, res.Profiles[i-1].User.ID)
				}
				if len(p.Authorisations) != 1 || p.Authorisations[0].CRMRoleID != "crm-x" || p.Organisation.OrganisationID != "org-crm" {
					t.Errorf("profile of user %d: organisation %+v, authorisations %+v", p.User.ID, p.Organisation, p.Authorisations)
				}
			}
			// The organisation, its roles, the members, their users, their
			// roles: not one request (or three) per member.
			if requests > 6 {
				t.Errorf("%d DynamoDB requests for %d members (%s), want at most 6", requests, members, log)
			}
		})
	}
}

// TestCRMOrganisationLookupIsBounded: the organisation lookup answers at
// most CRMProfilesBound contacts (low here) and refuses past it, saying how
// to ask for less, rather than answer a part that reads as the whole (its
// answer, a map keyed by contact id, has no room to say so). Its requests
// are few and stop once the bound is passed: a page of contacts with one
// BatchGetItem of their users, a page of invitation links with one of
// their invitations.
func TestCRMOrganisationLookupIsBounded(t *testing.T) {
	log := &requestLog{}
	client, table := dynamotest.NewClient(t, log.option)
	reg, err := config.Parse([]byte(testkit.Registry))
	if err != nil {
		t.Fatal(err)
	}
	clock := func() time.Time { return now }
	s := &service.Service{Store: dynamo.New(client, table, clock), Queue: &testkit.RecordingQueue{}, Registry: reg, Clock: clock,
		PublicBaseURL: testkit.PublicBaseURL}
	ctx := context.Background()
	if err := s.Store.PutCRMOrganisation(ctx, domain.CRMOrganisation{OrganisationID: "org-crm", Name: "CRM Org"}); err != nil {
		t.Fatal(err)
	}
	// 6 paired contacts, one of them also invited (still open) and each
	// with an accepted invitation; a contact whose user is gone; 3 invited
	// contacts, one of whose invitations has expired: 9 entries.
	const paired, invited = 6, 3
	seed := domain.Seed{}
	invID := int64(880_000)
	invite := func(contactID string, status domain.InvitationStatus, expiry time.Time) {
		t.Helper()
		invID++
		if err := s.Store.CreateCRMInvitation(ctx, domain.Invitation{ID: invID, HashDigest: fmt.Sprint("digest-", invID), Status: status,
			IntendedAuthority: domain.Guest, Email: contactID + "@example.org", CreatedAt: now, ExpiryDate: expiry,
			OrganizationGUID: "org-crm", CRMOrganisationID: "org-crm", CRMContactID: contactID}); err != nil {
			t.Fatal(err)
		}
	}
	for i := range int64(paired) {
		uid := 890_001 + i
		contactID := fmt.Sprintf("c-p%d", i)
		seed.Users = append(seed.Users, domain.User{ID: uid, Sub: fmt.Sprint("sub-crm-", uid), Name: fmt.Sprintf("Crm %02d", i),
			Email: fmt.Sprint("crm", uid, "@example.org"), CreatedAt: now})
		if err := s.Store.PutCRMContact(ctx, domain.CRMContact{OrganisationID: "org-crm", ContactID: contactID, UserID: uid}); err != nil {
			t.Fatal(err)
		}
		invite(contactID, domain.InvitationAccepted, now.Add(24*time.Hour))
	}
	if err := s.Store.Seed(ctx, seed); err != nil {
		t.Fatal(err)
	}
	invite("c-p0", domain.InvitationOpen, now.Add(24*time.Hour))
	if err := s.Store.PutCRMContact(ctx, domain.CRMContact{OrganisationID: "org-crm", ContactID: "c-x-gone", UserID: 899_999}); err != nil {
		t.Fatal(err)
	}
	for i := range invited {
		expiry := now.Add(24 * time.Hour)
		if i == 0 {
			expiry = now.Add(-time.Hour)
		}
		invite(fmt.Sprintf("c-i%d", i), domain.InvitationOpen, expiry)
	}
	yes, no := true, false
	for _, tc := range []struct {
		name        string
		bound       int
		connected   *bool
		entries     int // -1: refused
		maxRequests int64
	}{
		{"paired past the bound", paired - 1, nil, -1, 3},
		{"all past the bound", paired + invited - 1, nil, -1, 5},
		{"all at the bound", paired + invited, nil, paired + invited, 6},
		{"the default bound", 0, nil, paired + invited, 6},
		{"paired only, at the bound", paired, &yes, paired, 4},
		{"invited only, at the bound", invited + 1, &no, invited + 1, 6},
		{"invited only, past the bound", invited, &no, -1, 4},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s.CRMProfilesBound = tc.bound
			before := log.total.Load()
			got, err := s.CRMOrganisationUsers(ctx, crmCaller, "org-crm", tc.connected)
			requests := log.total.Load() - before
			if tc.entries < 0 {
				if domain.KindOf(err) != domain.KindInvalid || !strings.Contains(err.Error(), fmt.Sprintf("more than %d contacts", tc.bound)) ||
					!strings.Contains(err.Error(), "connected=") {
					t.Fatalf("got %d entries, err %v; want refused saying how to ask for less", len(got), err)
				}
			} else {
				if err != nil || len(got) != tc.entries {
					t.Fatalf("got %d entries (%v), want %d", len(got), err, tc.entries)
				}
				for id, e := range got {
					want := service.CRMPaired
					switch {
					case id == "c-i0":
						want = service.CRMNotPaired
					case strings.HasPrefix(id, "c-i") || tc.connected == &no:
						want = service.CRMInProcess
					}
					if e.Status != want || (strings.HasPrefix(id, "c-p") != (e.User != nil)) {
						t.Errorf("entry %s: status %q, user %v; want %q", id, e.Status, e.User != nil, want)
					}
				}
			}
			if requests > tc.maxRequests {
				t.Errorf("%d DynamoDB requests, want at most %d (%s)", requests, tc.maxRequests, log)
			}
		})
	}
}
