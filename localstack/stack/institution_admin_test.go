package stack

import (
	"net/http"
	"testing"
	"time"
)

// An institution admin made by invitation creates a role, invites a guest
// and a manager; both accept, and only the guest reaches the SCIM SP: the
// rules of OpenConext-Invite its users depend on (issue 18), end to end.
func TestInstitutionAdminByInvitationProvisionsOnlyGuests(t *testing.T) {
	clock := &testClock{}
	s := startTestStack(t, clock, "")
	c := client{t: t, base: s.URL}
	super := map[string]string{"X-API-TOKEN": "e2e-bootstrap-token-0123456789abcdef"}
	bearer := func(sub, email string) map[string]string {
		tok, err := s.IdP.Mint(map[string]any{"sub": sub, "email": email, "eduperson_principal_name": email,
			"given_name": "Given", "family_name": "Family"}, "invite", time.Hour)
		if err != nil {
			t.Fatal(err)
		}
		return map[string]string{"Authorization": "Bearer " + tok}
	}
	type sent struct {
		URLs []struct {
			InvitationURL string `json:"invitationURL"`
		} `json:"recipientInvitationURLs"`
		IDs []int64 `json:"invitationIdentifiers"`
	}
	accept := func(who map[string]string, inv sent) {
		t.Helper()
		hash := linkPattern.FindStringSubmatch(inv.URLs[0].InvitationURL)[1]
		if got := c.do("POST", "/api/v1/invitations/accept", who, map[string]any{"hash": hash, "invitationId": inv.IDs[0]}, nil); got != http.StatusCreated {
			t.Fatalf("accept = %d", got)
		}
	}
	expiry := clock.Now().Add(24 * time.Hour).Unix()

	// 1. The bootstrap super user invites an institution admin of org-x.
	var adminInv sent
	if got := c.do("POST", "/api/v1/invitations", super, map[string]any{"intendedAuthority": "INSTITUTION_ADMIN",
		"invites": []string{"ada@org-x.example"}, "organizationGUID": "org-x", "expiryDate": expiry,
		"suppressSendingEmails": true}, &adminInv); got != http.StatusCreated || len(adminInv.IDs) != 1 {
		t.Fatalf("institution admin invitation = %d %+v", got, adminInv)
	}
	ada := bearer("ada", "ada@org-x.example")
	accept(ada, adminInv)

	// 2. Ada creates a role of the sample application, in her organization.
	var role struct {
		ID               int64  `json:"id"`
		OrganizationGUID string `json:"organizationGUID"`
	}
	if got := c.do("POST", "/api/v1/roles", ada, map[string]any{"name": "Lab members", "defaultExpiryDays": 30,
		"applicationUsages": []any{map[string]any{"application": map[string]any{"manageId": "sample-app", "manageType": "SAML20_SP"}}}},
		&role); got != http.StatusCreated || role.OrganizationGUID != "org-x" {
		t.Fatalf("role by the institution admin = %d %+v", got, role)
	}
	eventually(t, "the role's group at the SP", func() bool { return len(s.SP.Groups()) == 1 })

	// 3. She invites a guest and a manager; both accept.
	for _, p := range []struct{ sub, email, authority string }{
		{"gina", "gina@guest.example", "GUEST"}, {"max", "max@org-x.example", "MANAGER"},
	} {
		var inv sent
		if got := c.do("POST", "/api/v1/invitations", ada, map[string]any{"intendedAuthority": p.authority,
			"invites": []string{p.email}, "roleIdentifiers": []int64{role.ID}, "expiryDate": expiry,
			"suppressSendingEmails": true}, &inv); got != http.StatusCreated {
			t.Fatalf("invitation of %s = %d", p.email, got)
		}
		accept(bearer(p.sub, p.email), inv)
	}

	// 4. Only the guest is a user and a group member at the SP.
	eventually(t, "the guest in the group at the SP", func() bool {
		gs := s.SP.Groups()
		return len(gs) == 1 && len(gs[0].Members) == 1
	})
	time.Sleep(2 * time.Second) // what else was queued has been delivered by now
	users := s.SP.Users()
	if len(users) != 1 || users[0].UserName != "gina@guest.example" {
		t.Fatalf("users at the SP: %+v, want the guest only", users)
	}
	if gs := s.SP.Groups(); len(gs) != 1 || len(gs[0].Members) != 1 || gs[0].Members[0].Value != users[0].ID {
		t.Fatalf("group at the SP: %+v, want the guest only", gs)
	}
}
