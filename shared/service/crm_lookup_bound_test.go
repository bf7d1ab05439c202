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
