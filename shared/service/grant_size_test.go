package service_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/edu-invite/invite/shared/domain"
	"github.com/edu-invite/invite/shared/service"
)

// createCRMRoles creates n wiki roles of organisation org-crm, each linked
// to the CRM role crm-<i>, and returns them with their CRM roles.
func createCRMRoles(t *testing.T, s *service.Service, n int) ([]domain.Role, []service.CRMRoleInput) {
	t.Helper()
	ctx := context.Background()
	var roles []domain.Role
	var crmRoles []service.CRMRoleInput
	for i := range n {
		in := wikiRole(fmt.Sprintf("Wiki %02d", i))
		in.OrganizationGUID = "org-crm"
		role, err := s.CreateRole(ctx, root, in)
		if err != nil {
			t.Fatal(err)
		}
		role.CRMRoleID, role.CRMRoleName = fmt.Sprint("crm-", i), fmt.Sprint("Rol ", i)
		if err := s.Store.UpdateRole(ctx, role, nil); err != nil {
			t.Fatal(err)
		}
		roles = append(roles, role)
		crmRoles = append(crmRoles, service.CRMRoleInput{RoleID: role.CRMRoleID})
	}
	return roles, crmRoles
}

// A grant of memberships without invitation (user-role provisioning, the
// CRM's direct provisioning) that could not be saved in one transaction is
// refused before anything is written, saying how many of its roles fit: no
// user, no membership, no delivery, no CRM organisation, contact or
// invitation. A grant of one role more is refused too, and one of that
// many roles is made whole.
func TestGrantTooLargeForOneTransactionIsRefused(t *testing.T) {
	tests := []struct {
		name  string
		sub   string
		grant func(s *service.Service, roles []domain.Role, crmRoles []service.CRMRoleInput) error
	}{
		{"user-role provisioning", "urn:collab:person:uni.example:pat", func(s *service.Service, roles []domain.Role, _ []service.CRMRoleInput) error {
			var ids []int64
			for _, r := range roles {
				ids = append(ids, r.ID)
			}
			_, err := s.ProvisionUserRoles(context.Background(), root, service.UserRoleProvisioningInput{RoleIDs: ids,
				Email: "pat@uni.example", Name: "Pat Aa Bb Cc Dd Ee Ff Gg Hh Ii Jj Kk Ll Mm"})
			return err
		}},
		{"CRM direct provisioning", "urn:collab:person:uni.example:pat", func(s *service.Service, _ []domain.Role, crmRoles []service.CRMRoleInput) error {
			in := crmInput("c-1", true)
			in.UID, in.SchacHomeOrganisation, in.Roles = "pat", "uni.example", crmRoles
			_, err := s.CRMProfile(context.Background(), crmCaller, in)
			return err
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, q := newService(t)
			ctx := context.Background()
			roles, crmRoles := createCRMRoles(t, s, 30)
			queued := len(q.Deliveries())

			err := tt.grant(s, roles, crmRoles)
			var tooMany *service.TooManyRolesError
			if domain.KindOf(err) != domain.KindInvalid || !errors.As(err, &tooMany) || !strings.Contains(err.Error(), "grant fewer roles per request") {
				t.Fatalf("grant of %d roles: err %v, want invalid with advice", len(roles), err)
			}
			most := tooMany.Most
			if most < 1 || most >= len(roles) || !strings.Contains(err.Error(), fmt.Sprintf("at most %d ", most)) {
				t.Fatalf("refusal %q names no usable number of roles (%d)", err, most)
			}
			t.Logf("a grant holds at most %d of these roles", most)
			assertNothingGranted(t, s, tt.sub, roles)
			if got := len(q.Deliveries()); got != queued {
				t.Errorf("%d deliveries queued after a refusal", got-queued)
			}

			if err := tt.grant(s, roles[:most+1], crmRoles[:most+1]); !errors.As(err, &tooMany) || tooMany.Most != most {
				t.Fatalf("grant of %d roles: err %v, want refused naming %d", most+1, err, most)
			}
			assertNothingGranted(t, s, tt.sub, roles)

			if err := tt.grant(s, roles[:most], crmRoles[:most]); err != nil {
				t.Fatalf("grant of %d roles: %v", most, err)
			}
			user, err := s.Store.GetUserBySub(ctx, tt.sub)
			if err != nil {
				t.Fatal(err)
			}
			urs, err := s.Store.ListUserRolesOfUser(ctx, user.ID)
			if err != nil || len(urs) != most {
				t.Fatalf("%d memberships (%v), want %d", len(urs), err, most)
			}
			// The user is created at each SP of the wiki, then added to each group.
			if got := len(q.Deliveries()) - queued; got != 2*(most+1) {
				t.Errorf("%d deliveries queued for %d roles at 2 SPs, want %d", got, most, 2*(most+1))
			}
		})
	}
}

// assertNothingGranted fails when a refused grant left anything behind.
func assertNothingGranted(t *testing.T, s *service.Service, sub string, roles []domain.Role) {
	t.Helper()
	ctx := context.Background()
	if u, err := s.Store.GetUserBySub(ctx, sub); !domain.IsNotFound(err) {
		t.Errorf("user %+v (%v) after a refusal", u, err)
	}
	for _, r := range roles {
		if urs, _, err := s.Store.ListUserRolesOfRole(ctx, r.ID, "", 10); err != nil || len(urs) != 0 {
			t.Errorf("role %d has %d members (%v) after a refusal", r.ID, len(urs), err)
		}
	}
	if ds, err := s.Store.ListUnsentDeliveries(ctx, now.Add(time.Hour), 10); err != nil || len(ds) != 0 {
		t.Errorf("%d deliveries written (%v) after a refusal", len(ds), err)
	}
	if org, err := s.Store.GetCRMOrganisation(ctx, "org-crm"); !domain.IsNotFound(err) {
		t.Errorf("CRM organisation %+v (%v) saved by a refused request", org, err)
	}
	if c, err := s.Store.GetCRMContact(ctx, "org-crm", "c-1"); !domain.IsNotFound(err) {
		t.Errorf("CRM contact %+v (%v) saved by a refused request", c, err)
	}
	if invs, err := s.Store.ListCRMInvitations(ctx, "org-crm", ""); err != nil || len(invs) != 0 {
		t.Errorf("%d CRM invitations (%v) after a refusal", len(invs), err)
	}
}

// A CRM profile refused for its size, whether it would provision the
// contact's user directly or invite the contact, is refused before it
// writes anything: the organisation keeps its name and the membership the
// profile no longer lists stays.
func TestCRMProfileRefusedForItsSizeChangesNothing(t *testing.T) {
	tests := []struct {
		name      string
		provision bool
	}{
		{"provisioned directly", true},
		{"invited", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, q := newService(t)
			ctx := context.Background()
			roles, crmRoles := createCRMRoles(t, s, 30)
			in := crmInput("c-1", true)
			in.UID, in.SchacHomeOrganisation, in.Roles = "pat", "uni.example", crmRoles[:1]
			if res, err := s.CRMProfile(ctx, crmCaller, in); err != nil || res != service.CRMCreated {
				t.Fatalf("%q %v", res, err)
			}
			user, err := s.Store.GetUserBySub(ctx, "urn:collab:person:uni.example:pat")
			if err != nil {
				t.Fatal(err)
			}
			invsBefore, err := s.Store.ListCRMInvitations(ctx, "org-crm", "")
			if err != nil {
				t.Fatal(err)
			}
			queued := len(q.Deliveries())

			refused := in
			refused.Organisation.Name, refused.Roles = "Renamed Org", crmRoles[1:]
			if !tt.provision {
				refused.UID, refused.SchacHomeOrganisation, refused.SuppressInvitation = "", "", false
			}
			_, err = s.CRMProfile(ctx, crmCaller, refused)
			if tooMany := (*service.TooManyRolesError)(nil); !errors.As(err, &tooMany) || domain.KindOf(err) != domain.KindInvalid {
				t.Fatalf("profile with %d roles: err %v, want refused for its size", len(refused.Roles), err)
			}
			if org, err := s.Store.GetCRMOrganisation(ctx, "org-crm"); err != nil || org.Name != "CRM Org" {
				t.Errorf("organisation %+v (%v) after a refusal, want it unchanged", org, err)
			}
			urs, err := s.Store.ListUserRolesOfUser(ctx, user.ID)
			if err != nil || len(urs) != 1 || urs[0].RoleID != roles[0].ID {
				t.Errorf("memberships %+v (%v) after a refusal, want the one of role %d", urs, err, roles[0].ID)
			}
			if invs, err := s.Store.ListCRMInvitations(ctx, "org-crm", ""); err != nil || len(invs) != len(invsBefore) {
				t.Errorf("%d CRM invitations (%v) after a refusal, want %d", len(invs), err, len(invsBefore))
			}
			if got := len(q.Deliveries()); got != queued {
				t.Errorf("%d deliveries queued after a refusal", got-queued)
			}
		})
	}
}

// A grant to a user the service knows is sized as the grant it is: the
// roles the user holds already are no new memberships and do not count, so
// a request naming the held role and as many others as fit succeeds, and
// one more is refused with the user's memberships unchanged.
func TestGrantToAKnownUserIsSizedAsItIs(t *testing.T) {
	const sub = "urn:collab:person:uni.example:pat"
	tests := []struct {
		name  string
		grant func(s *service.Service, roles []domain.Role, crmRoles []service.CRMRoleInput) error
	}{
		{"user-role provisioning", func(s *service.Service, roles []domain.Role, _ []service.CRMRoleInput) error {
			var ids []int64
			for _, r := range roles {
				ids = append(ids, r.ID)
			}
			_, err := s.ProvisionUserRoles(context.Background(), root, service.UserRoleProvisioningInput{RoleIDs: ids, Email: "pat@uni.example"})
			return err
		}},
		{"CRM direct provisioning", func(s *service.Service, _ []domain.Role, crmRoles []service.CRMRoleInput) error {
			in := crmInput("c-1", true)
			in.UID, in.SchacHomeOrganisation, in.Roles = "pat", "uni.example", crmRoles
			_, err := s.CRMProfile(context.Background(), crmCaller, in)
			return err
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, q := newService(t)
			ctx := context.Background()
			roles, crmRoles := createCRMRoles(t, s, 30)
			if err := tt.grant(s, roles[:1], crmRoles[:1]); err != nil {
				t.Fatal(err)
			}
			user, err := s.Store.GetUserBySub(ctx, sub)
			if err != nil {
				t.Fatal(err)
			}
			memberships := func() int {
				t.Helper()
				urs, err := s.Store.ListUserRolesOfUser(ctx, user.ID)
				if err != nil {
					t.Fatal(err)
				}
				return len(urs)
			}
			queued := len(q.Deliveries())

			err = tt.grant(s, roles, crmRoles)
			var tooMany *service.TooManyRolesError
			if !errors.As(err, &tooMany) || tooMany.Most < 1 || tooMany.Most >= len(roles)-1 {
				t.Fatalf("grant of %d roles, 1 held: err %v, want refused naming how many fit", len(roles), err)
			}
			most := tooMany.Most
			if err := tt.grant(s, roles[:most+2], crmRoles[:most+2]); !errors.As(err, &tooMany) || tooMany.Most != most {
				t.Fatalf("grant of the held role and %d more: err %v, want refused naming %d", most+1, err, most)
			}
			if got := memberships(); got != 1 || len(q.Deliveries()) != queued {
				t.Fatalf("%d memberships and %d deliveries queued after refusals, want 1 and none", got, len(q.Deliveries())-queued)
			}
			if err := tt.grant(s, roles[:most+1], crmRoles[:most+1]); err != nil {
				t.Fatalf("grant of the held role and %d more: %v", most, err)
			}
			if got := memberships(); got != most+1 {
				t.Errorf("%d memberships, want %d", got, most+1)
			}
		})
	}
}
