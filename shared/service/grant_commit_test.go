package service_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/edu-invite/invite/shared/auth"
	"github.com/edu-invite/invite/shared/domain"
	"github.com/edu-invite/invite/shared/service"
	"github.com/edu-invite/invite/shared/testkit"
)

// Every way a new person gets a guest membership commits it alike: the
// membership stored with an id, one ADD audit entry with an id naming the
// user and the role, and at each SP of the role the user created before
// being added to the group.
func TestEveryGrantCommitsAlike(t *testing.T) {
	tests := []struct {
		name  string
		grant func(t *testing.T, s *service.Service, role domain.Role) int64 // the new user's id
	}{
		{"acceptance", func(t *testing.T, s *service.Service, role domain.Role) int64 {
			return acceptInto(t, s, auth.Person{Sub: "sub-gia", Email: "gia@example.org", Name: "Gia"}, []int64{role.ID}).ID
		}},
		{"user role provisioning", func(t *testing.T, s *service.Service, role domain.Role) int64 {
			res, err := s.ProvisionUserRoles(context.Background(), root, service.UserRoleProvisioningInput{RoleIDs: []int64{role.ID},
				Sub: "sub-gia", Email: "gia@example.org", Name: "Gia"})
			if err != nil {
				t.Fatal(err)
			}
			return res.User.ID
		}},
		{"CRM profile", func(t *testing.T, s *service.Service, role domain.Role) int64 {
			in := crmInput("c-gia", true)
			in.UID, in.SchacHomeOrganisation = "gia", "example.org"
			if res, err := s.CRMProfile(context.Background(), crmCaller, in); err != nil || res != service.CRMCreated {
				t.Fatalf("%q %v", res, err)
			}
			u, err := s.Store.GetUserBySub(context.Background(), "urn:collab:person:example.org:gia")
			if err != nil {
				t.Fatal(err)
			}
			return u.ID
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s, _, role := newCRMService(t)
			q := s.Queue.(*testkit.RecordingQueue)
			before := len(q.Deliveries())
			ctx := context.Background()
			userID := tc.grant(t, s, role)

			ur, err := s.Store.GetUserRole(ctx, userID, role.ID)
			if err != nil || ur.ID == 0 || ur.Authority != domain.Guest {
				t.Fatalf("membership %+v, %v", ur, err)
			}
			entries, err := s.Store.ListRecentAuditEntries(ctx, role.ID, now.AddDate(0, 0, 1), 10)
			if err != nil {
				t.Fatal(err)
			}
			var adds []domain.AuditEntry
			for _, e := range entries {
				if e.Action == domain.AuditAdd && e.UserID == userID {
					adds = append(adds, e)
				}
			}
			if len(adds) != 1 || adds[0].ID == 0 || adds[0].RoleID != role.ID {
				t.Errorf("ADD audit entries %+v, want one with an id", adds)
			}
			var got []string
			for _, d := range q.Deliveries()[before:] {
				got = append(got, fmt.Sprintf("%s %s %d/%d", d.SPID, d.Kind, d.UserID, d.RoleID))
			}
			want := []string{
				fmt.Sprintf("sp-a %s %d/0", domain.DeliverUserCreate, userID), fmt.Sprintf("sp-a %s %d/%d", domain.DeliverMemberAdd, userID, role.ID),
				fmt.Sprintf("sp-b %s %d/0", domain.DeliverUserCreate, userID), fmt.Sprintf("sp-b %s %d/%d", domain.DeliverMemberAdd, userID, role.ID),
			}
			if fmt.Sprint(got) != fmt.Sprint(want) {
				t.Errorf("deliveries\n%v\nwant\n%v", got, want)
			}
		})
	}
}
