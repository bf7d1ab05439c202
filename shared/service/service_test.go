package service_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/edu-invite/invite/shared/auth"
	"github.com/edu-invite/invite/shared/domain"
	"github.com/edu-invite/invite/shared/service"
	"github.com/edu-invite/invite/shared/testkit"
)

var now = time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)

// newService is a service whose clock stands at now.
func newService(t *testing.T) (*service.Service, *testkit.RecordingQueue) {
	t.Helper()
	return testkit.NewService(t, func() time.Time { return now })
}

var root = &auth.Principal{Kind: auth.KindAPIToken, SuperUser: true, Name: "root"}

func wikiRole(name string) service.RoleInput {
	return service.RoleInput{Name: name, OrganizationGUID: "org-test", ApplicationUsages: []service.ApplicationUsageInput{{ManageID: "wiki", ManageType: "SAML20_SP"}}}
}

// createWikiRole creates the wiki role named name as root.
func createWikiRole(t *testing.T, s *service.Service, name string) domain.Role {
	t.Helper()
	role, err := s.CreateRole(context.Background(), root, wikiRole(name))
	if err != nil {
		t.Fatal(err)
	}
	return role
}

func TestCreateRoleSendsGroupToEachSP(t *testing.T) {
	s, q := newService(t)
	role, err := s.CreateRole(context.Background(), root, wikiRole("Wiki editors"))
	if err != nil {
		t.Fatal(err)
	}
	if role.ShortName != "wiki-editors" || !strings.HasSuffix(role.URN, ":wiki-editors") || role.Identifier == "" ||
		role.ApplicationUsages[0].LandingPage != "https://wiki.example.org" {
		t.Errorf("role = %+v", role)
	}
	if len(q.Deliveries()) != 2 || q.Deliveries()[0].SPID != "sp-a" || q.Deliveries()[1].SPID != "sp-b" || q.Deliveries()[0].Kind != domain.DeliverGroupCreate {
		t.Fatalf("deliveries = %+v, want group.create at sp-a and sp-b", q.Deliveries())
	}
	// A role of an application without SCIM target sends nothing.
	if _, err := s.CreateRole(context.Background(), root, service.RoleInput{Name: "LMS", OrganizationGUID: "org-test",
		ApplicationUsages: []service.ApplicationUsageInput{{ManageID: "lms"}}}); err != nil || len(q.Deliveries()) != 2 {
		t.Fatalf("err %v, deliveries %d", err, len(q.Deliveries()))
	}
}

func TestCreateRoleRejectsBadInputAndChangesNothing(t *testing.T) {
	future := now.Add(24 * time.Hour)
	tests := []struct {
		name string
		in   service.RoleInput
		p    *auth.Principal
		kind domain.ErrorKind
	}{
		{"empty name", service.RoleInput{Name: "  ", ApplicationUsages: wikiRole("").ApplicationUsages}, root, domain.KindInvalid},
		{"both expiries", func() service.RoleInput {
			r := wikiRole("x")
			r.DefaultExpiryDays = 3
			r.DefaultExpiryDate = &future
			return r
		}(), root, domain.KindInvalid},
		{"negative days", func() service.RoleInput { r := wikiRole("x"); r.DefaultExpiryDays = -1; return r }(), root, domain.KindInvalid},
		{"no application", service.RoleInput{Name: "x"}, root, domain.KindInvalid},
		{"unknown application", service.RoleInput{Name: "x", ApplicationUsages: []service.ApplicationUsageInput{{ManageID: "nope"}}}, root, domain.KindInvalid},
		{"wrong manage type", service.RoleInput{Name: "x", ApplicationUsages: []service.ApplicationUsageInput{{ManageID: "wiki", ManageType: "OIDC10_RP"}}}, root, domain.KindInvalid},
		{"application twice", service.RoleInput{Name: "x", ApplicationUsages: []service.ApplicationUsageInput{{ManageID: "wiki"}, {ManageID: "wiki"}}}, root, domain.KindInvalid},
		{"super user without organization", func() service.RoleInput { r := wikiRole("x"); r.OrganizationGUID = ""; return r }(),
			root, domain.KindForbidden},
		{"caller without organization", wikiRole("x"), &auth.Principal{Kind: auth.KindAPIToken}, domain.KindForbidden},
		{"anonymous", wikiRole("x"), nil, domain.KindUnauthenticated},
		{"taken name", wikiRole("EXISTING"), root, domain.KindConflict},
	}
	s, q := newService(t)
	if _, err := s.CreateRole(context.Background(), root, wikiRole("existing")); err != nil {
		t.Fatal(err)
	}
	before := len(q.Deliveries())
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := s.CreateRole(context.Background(), tc.p, tc.in)
			if domain.KindOf(err) != tc.kind {
				t.Fatalf("err = %v, want kind %d", err, tc.kind)
			}
			if len(q.Deliveries()) != before {
				t.Fatalf("a refused role sent %d deliveries", len(q.Deliveries())-before)
			}
		})
	}
	roles, err := s.Store.ListRolesByManageID(context.Background(), "wiki")
	if err != nil || len(roles) != 1 {
		t.Fatalf("roles of wiki = %d, %v; want only the one created", len(roles), err)
	}
}

func TestInviteRejectsBadInputAndChangesNothing(t *testing.T) {
	s, _ := newService(t)
	role, err := s.CreateRole(context.Background(), root, wikiRole("Wiki"))
	if err != nil {
		t.Fatal(err)
	}
	future, past := now.Add(time.Hour), now.Add(-time.Hour)
	valid := func() service.InvitationInput {
		return service.InvitationInput{IntendedAuthority: "GUEST", Invites: []string{"a@example.org"}, RoleIDs: []int64{role.ID},
			ExpiryDate: &future, SuppressSendingEmails: true}
	}
	tests := []struct {
		name   string
		change func(*service.InvitationInput)
		p      *auth.Principal
		kind   domain.ErrorKind
		reason string
	}{
		{"placeholder without id beside plain addresses", func(in *service.InvitationInput) {
			in.WithPlaceholders = []service.PlaceholderRecipient{{Email: "b@example.org"}}
		}, root, domain.KindInvalid, "internalPlaceholderIdentifier"},
		{"no recipient", func(in *service.InvitationInput) { in.Invites = nil }, root, domain.KindInvalid, "at least one recipient"},
		{"bad e-mail", func(in *service.InvitationInput) { in.Invites = []string{"not-an-address"} }, root, domain.KindInvalid, "valid e-mail"},
		{"named address", func(in *service.InvitationInput) { in.Invites = []string{"Alice <a@example.org>"} }, root, domain.KindInvalid, "valid e-mail"},
		{"duplicate recipient", func(in *service.InvitationInput) { in.Invites = []string{"a@example.org", "a@EXAMPLE.org"} }, root, domain.KindInvalid, "twice"},
		{"placeholder without id", func(in *service.InvitationInput) {
			in.Invites = nil
			in.WithPlaceholders = []service.PlaceholderRecipient{{Email: "b@example.org"}}
		}, root, domain.KindInvalid, "internalPlaceholderIdentifier"},
		{"no expiry", func(in *service.InvitationInput) { in.ExpiryDate = nil }, root, domain.KindInvalid, "expiryDate"},
		{"past expiry", func(in *service.InvitationInput) { in.ExpiryDate = &past }, root, domain.KindInvalid, "future"},
		{"past role expiry", func(in *service.InvitationInput) { in.RoleExpiryDate = &past }, root, domain.KindInvalid, "roleExpiryDate"},
		{"unknown authority", func(in *service.InvitationInput) { in.IntendedAuthority = "OWNER" }, root, domain.KindInvalid, "authority"},
		{"bad language", func(in *service.InvitationInput) { in.Language = "de" }, root, domain.KindInvalid, "language"},
		{"no roles", func(in *service.InvitationInput) { in.RoleIDs = nil }, root, domain.KindConflict, "at least one role"},
		{"unknown role", func(in *service.InvitationInput) { in.RoleIDs = []int64{role.ID, 999} }, root, domain.KindInvalid, "999"},
		{"not allowed", func(in *service.InvitationInput) {}, &auth.Principal{Kind: auth.KindPerson, Memberships: map[int64]domain.Authority{role.ID: domain.Guest}}, domain.KindForbidden, "not allowed"},
		// Another organization's role is as unknown as a missing one.
		{"another organization's role", func(in *service.InvitationInput) {}, &auth.Principal{Kind: auth.KindAPIToken, OrganizationGUID: "other"}, domain.KindInvalid, "unknown role ids"},
		{"anonymous", func(in *service.InvitationInput) {}, nil, domain.KindUnauthenticated, "authentication"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			in := valid()
			tc.change(&in)
			_, err := s.Invite(context.Background(), tc.p, in)
			if domain.KindOf(err) != tc.kind || !strings.Contains(err.Error(), tc.reason) {
				t.Fatalf("err = %v, want kind %d mentioning %q", err, tc.kind, tc.reason)
			}
		})
	}
	open, err := s.Store.ListOpenInvitationsOfRole(context.Background(), role.ID)
	if err != nil || len(open) != 0 {
		t.Fatalf("refused requests left %d invitations (%v)", len(open), err)
	}
	// And a valid one works, with the link's secret only in the response.
	res, err := s.Invite(context.Background(), root, valid())
	if err != nil || res.Status != 201 || len(res.URLs) != 1 || !strings.HasPrefix(res.URLs[0].InvitationURL, "https://invite.example.org/invitation/accept?hash=") {
		t.Fatalf("valid invite = %+v, %v", res, err)
	}
	secret := res.URLs[0].InvitationURL[strings.Index(res.URLs[0].InvitationURL, "hash=")+5:]
	inv, _, err := s.OpenInvitation(context.Background(), secret)
	if err != nil || inv.HashDigest == secret || inv.HashDigest != service.HashDigest(secret) {
		t.Fatalf("stored invitation %+v, %v: only the digest may be stored", inv, err)
	}
}

func TestMembershipEndDate(t *testing.T) {
	fixed := now.AddDate(0, 3, 0)
	invExpiry := now.AddDate(0, 1, 0)
	tests := []struct {
		name    string
		role    func(*service.RoleInput)
		roleExp *time.Time
		wantEnd *time.Time
	}{
		{"invitation's roleExpiryDate wins", func(r *service.RoleInput) { r.DefaultExpiryDays = 10 }, &invExpiry, &invExpiry},
		{"role's fixed date", func(r *service.RoleInput) { r.DefaultExpiryDate = &fixed }, nil, &fixed},
		{"role's default days", func(r *service.RoleInput) { r.DefaultExpiryDays = 10 }, nil, ptr(now.AddDate(0, 0, 10))},
		{"no end", func(r *service.RoleInput) {}, nil, nil},
	}
	for i, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s, _ := newService(t)
			in := wikiRole("role")
			tc.role(&in)
			role, err := s.CreateRole(context.Background(), root, in)
			if err != nil {
				t.Fatal(err)
			}
			expiry := now.Add(time.Hour)
			res, err := s.Invite(context.Background(), root, service.InvitationInput{IntendedAuthority: "GUEST", Invites: []string{"x@example.org"},
				RoleIDs: []int64{role.ID}, ExpiryDate: &expiry, RoleExpiryDate: tc.roleExp, SuppressSendingEmails: true})
			if err != nil {
				t.Fatal(err)
			}
			secret := res.URLs[0].InvitationURL[strings.Index(res.URLs[0].InvitationURL, "hash=")+5:]
			person := &auth.Principal{Kind: auth.KindPerson, Person: &auth.Person{Sub: "s" + string(rune('a'+i)), Email: "x@example.org"}}
			acc, err := s.Accept(context.Background(), person, secret, 0)
			if err != nil {
				t.Fatal(err)
			}
			got := acc.UserRoles[0].EndDate
			if (got == nil) != (tc.wantEnd == nil) || (got != nil && !got.Equal(*tc.wantEnd)) {
				t.Fatalf("endDate = %v, want %v", got, tc.wantEnd)
			}
		})
	}
}

func TestAcceptEnforcesEmailEquality(t *testing.T) {
	s, q := newService(t)
	in := wikiRole("Strict")
	in.EnforceEmailEquality = true
	role, _ := s.CreateRole(context.Background(), root, in)
	expiry := now.Add(time.Hour)
	res, err := s.Invite(context.Background(), root, service.InvitationInput{IntendedAuthority: "GUEST", Invites: []string{"x@example.org"},
		RoleIDs: []int64{role.ID}, ExpiryDate: &expiry, SuppressSendingEmails: true})
	if err != nil {
		t.Fatal(err)
	}
	before := len(q.Deliveries())
	secret := res.URLs[0].InvitationURL[strings.Index(res.URLs[0].InvitationURL, "hash=")+5:]
	other := &auth.Principal{Kind: auth.KindPerson, Person: &auth.Person{Sub: "mallory", Email: "mallory@example.org"}}
	if _, err := s.Accept(context.Background(), other, secret, 0); domain.KindOf(err) != domain.KindPrecondition {
		t.Fatalf("err = %v, want a failed precondition (412)", err)
	}
	if len(q.Deliveries()) != before {
		t.Fatal("a refused acceptance sent deliveries")
	}
	if _, err := s.Store.GetUserBySub(context.Background(), "mallory"); !domain.IsNotFound(err) {
		t.Fatalf("a refused acceptance created the user: %v", err)
	}
}

func ptr(t time.Time) *time.Time { return &t }

// TestAcceptRequiresTheRolesContext: a role asking for an authentication
// context is accepted, on every path, only with that context or a stronger
// one; a weaker sign-in is told which context to ask for and changes nothing.
func TestAcceptRequiresTheRolesContext(t *testing.T) {
	tests := []struct {
		name, acr string
		refused   bool
	}{
		{"no context", "", true},
		{"weaker", "urn:password", true},
		{"unordered", "urn:other", true},
		{"asked for", "urn:mfa", false},
		{"stronger", "urn:hardware", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, q := newService(t)
			s.Contexts = auth.ContextOrder{"urn:password", "urn:mfa", "urn:hardware"}
			in := wikiRole("Lab")
			in.RequestedAuthnContext = "urn:mfa"
			role, err := s.CreateRole(context.Background(), root, in)
			if err != nil {
				t.Fatal(err)
			}
			expiry := now.Add(time.Hour)
			res, err := s.Invite(context.Background(), root, service.InvitationInput{IntendedAuthority: "GUEST", Invites: []string{"g@example.org"},
				RoleIDs: []int64{role.ID}, ExpiryDate: &expiry, SuppressSendingEmails: true})
			if err != nil {
				t.Fatal(err)
			}
			before := len(q.Deliveries())
			secret := res.URLs[0].InvitationURL[strings.Index(res.URLs[0].InvitationURL, "hash=")+5:]
			guest := &auth.Principal{Kind: auth.KindPerson, Person: &auth.Person{Sub: "guest", Email: "g@example.org", ACR: tt.acr}}
			_, err = s.Accept(context.Background(), guest, secret, 0)
			var weak *auth.InsufficientAuthentication
			if got := errors.As(err, &weak); got != tt.refused {
				t.Fatalf("Accept = %v; refused for a weak context: %v, want %v", err, got, tt.refused)
			}
			if !tt.refused {
				return
			}
			if weak.ACRValues != "urn:mfa" {
				t.Errorf("acr_values = %q, want urn:mfa", weak.ACRValues)
			}
			if len(q.Deliveries()) != before {
				t.Error("a refused acceptance sent deliveries")
			}
			if _, err := s.Store.GetUserBySub(context.Background(), "guest"); !domain.IsNotFound(err) {
				t.Errorf("a refused acceptance created the user: %v", err)
			}
		})
	}
}
