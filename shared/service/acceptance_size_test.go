package service_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/edu-invite/invite/shared/auth"
	"github.com/edu-invite/invite/shared/domain"
	"github.com/edu-invite/invite/shared/service"
	"github.com/edu-invite/invite/shared/testkit"
)

// An invitation whose acceptance could not be saved in one transaction is
// refused when it is made, saying how many of its roles fit, and nothing is
// written; one to that many roles is made and accepted, even by a person
// whose name makes as many search entries as a name can, and one more role
// is refused again.
func TestInvitationWhoseAcceptanceWouldNotFitIsRefused(t *testing.T) {
	tests := []struct {
		name      string
		authority string
		guestRole bool
	}{
		{"manager with the guest role", "MANAGER", true},
		{"guest", "GUEST", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, _ := newService(t)
			ctx := context.Background()
			var ids []int64
			for i := range 14 {
				ids = append(ids, createWikiRole(t, s, fmt.Sprintf("Wiki %02d", i)).ID)
			}
			expiry := now.Add(24 * time.Hour)
			invite := func(roleIDs []int64, email string) (service.InvitationResult, error) {
				return s.Invite(ctx, root, service.InvitationInput{IntendedAuthority: tt.authority, GuestRoleIncluded: tt.guestRole,
					RoleIDs: roleIDs, ExpiryDate: &expiry, SuppressSendingEmails: true, Invites: []string{email}})
			}

			_, err := invite(ids, "p@example.org")
			if domain.KindOf(err) != domain.KindInvalid || !strings.Contains(err.Error(), "invite to fewer roles per invitation") {
				t.Fatalf("invitation to %d roles: err %v, want invalid with advice", len(ids), err)
			}
			var most int
			if _, scanErr := fmt.Sscanf(err.Error()[strings.Index(err.Error(), "at most"):], "at most %d", &most); scanErr != nil || most < 1 || most >= len(ids) {
				t.Fatalf("refusal %q names no usable number of roles (%d, %v)", err, most, scanErr)
			}
			t.Logf("an invitation holds at most %d of these roles", most)
			for _, id := range ids {
				if invs, err := s.Store.ListOpenInvitationsOfRole(ctx, id); err != nil || len(invs) != 0 {
					t.Fatalf("role %d has invitations %+v (%v) after a refusal", id, invs, err)
				}
			}

			if _, err := invite(ids[:most+1], "q@example.org"); domain.KindOf(err) != domain.KindInvalid {
				t.Fatalf("invitation to %d roles: err %v, want invalid", most+1, err)
			}
			res, err := invite(ids[:most], "p@example.org")
			if err != nil {
				t.Fatalf("invitation to %d roles: %v", most, err)
			}
			person := auth.Person{Sub: "sub-p", Email: "p@example.org", EduPersonPrincipalName: "p.eppn@example.org",
				GivenName: "Ada Bea Cleo Dora Eva", FamilyName: "Fay Gia Hana Ida Jo", Name: "Kim Lia Mia Nia Ola Pia Quin Ria"}
			got, err := s.Accept(ctx, &auth.Principal{Kind: auth.KindPerson, Person: &person}, testkit.SecretOfURL(t, res.URLs[0].InvitationURL), 0)
			if err != nil {
				t.Fatalf("accepting the invitation to %d roles: %v", most, err)
			}
			if len(got.UserRoles) != most {
				t.Errorf("accepted %d memberships, want %d", len(got.UserRoles), most)
			}
		})
	}
}
